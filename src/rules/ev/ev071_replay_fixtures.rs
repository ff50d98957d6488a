//! EV071: replay is tested with fixtures of every event class the boundary
//! carries; a synthetic message proves only the parser.
use super::common::{consumers, is_true, ordering_required, strings, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const SEQUENCE_CASES: [&str; 4] = [
    "duplicate",
    "missing-predecessor",
    "out-of-order",
    "after-terminal",
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        // Which event classes this boundary carries, from its own contract.
        let signed = text(c, "/spec/schema/audience") == Some("external")
            || is_true(c, "/spec/schema/signed_schema_refs");
        let pii = !strings(c.get("/spec/schema/pii_fields")).is_empty();
        let registry = matches!(
            text(c, "/spec/schema/discovery"),
            Some("registry" | "hybrid")
        );
        let stateful = ordering_required(c) || c.get("/spec/workflow").is_some();
        let needs = [
            (signed, "signed-raw-body", "signed"),
            (pii, "privacy-approved", "pii"),
            (registry, "registry-valid", "registry"),
            (stateful, "sequences", "sequences"),
        ];
        for consumer in consumers(c) {
            if consumer.get("/dlq").is_none() {
                continue;
            }
            let fixtures = strings(consumer.get("/dlq/fixtures"));
            for (applies, fixture, variant) in needs {
                if applies && !fixtures.contains(&fixture) {
                    sink.push(
                        c.report(RuleId::EV071, &consumer.ptr("/dlq/fixtures"))
                            .variant(variant)
                            .var("group", consumer.group())
                            .var("fixture", fixture),
                    );
                }
            }
            if !stateful {
                continue;
            }
            // One finding for the missing cases of one group: one list to
            // complete, not four findings on the same line.
            let cases = strings(consumer.get("/dlq/sequence_cases"));
            let missing: Vec<&str> = SEQUENCE_CASES
                .iter()
                .copied()
                .filter(|k| !cases.contains(k))
                .collect();
            if !missing.is_empty() {
                sink.push(
                    c.report(RuleId::EV071, &consumer.ptr("/dlq/sequence_cases"))
                        .variant("case")
                        .var("group", consumer.group())
                        .var("case", and_list(&missing))
                        .var("count", missing.len()),
                );
            }
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
