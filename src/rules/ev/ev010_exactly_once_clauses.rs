//! EV010: an exactly-once claim is judged clause by clause against the
//! five-clause recipe; each missing clause is its own finding.
use super::common::{delivery, text, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// (pointer, template variant, values that satisfy the clause)
const CLAUSES: &[(&str, &str, &[&str])] = &[
    (
        "/spec/exactly_once/publish",
        "publish",
        &["outbox", "transactional-producer"],
    ),
    ("/spec/exactly_once/consumer_dedup", "dedup", &["durable"]),
    (
        "/spec/exactly_once/atomic_commit",
        "commit",
        &["db-transaction-with-offset", "broker-transactions"],
    ),
    (
        "/spec/exactly_once/effects_in_atomic_domain",
        "domain",
        &["true"],
    ),
    (
        "/spec/exactly_once/replay_respects_dedup",
        "replay",
        &["true"],
    ),
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if delivery(c) != Some("exactly-once") {
            continue;
        }
        for (pointer, variant, ok) in CLAUSES {
            let node = c.get(pointer);
            let value = written(node);
            if node.is_none() || !ok.contains(&value.as_str()) {
                sink.push(
                    c.report(RuleId::EV010, pointer)
                        .variant(variant)
                        .var("boundary", &c.name)
                        .var("value", value),
                );
            }
        }
        // Clause 1 is about what the producer really does, not only the claim.
        if let Some(publish @ ("post-commit" | "direct")) = text(c, "/spec/producer/publish") {
            sink.push(
                c.report(RuleId::EV010, "/spec/producer/publish")
                    .variant("producer")
                    .var("boundary", &c.name)
                    .var("value", publish),
            );
        }
    }
}
