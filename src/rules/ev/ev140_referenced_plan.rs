//! EV140: the plans, tools and documents an event boundary names by path
//! exist in the repository.
//!
//! Paths resolve against the directory of the platcheck.yaml in use (the
//! working directory when there is none), as CL071's runbooks do.
use super::common::{consumers, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const BOUNDARY: [(&str, &str); 3] = [
    (
        "/spec/ordering/repartition_plan",
        "ordering.repartition_plan",
    ),
    ("/spec/schema/deprecation_plan", "schema.deprecation_plan"),
    ("/spec/schema/retraction_path", "schema.retraction_path"),
];
const CONSUMER: [(&str, &str); 2] = [
    ("/dlq/replay_tool", "dlq.replay_tool"),
    (
        "/read_model/staleness_documented_in",
        "read_model.staleness_documented_in",
    ),
];

/// Whether the value names a repository path (not a link or a sentence).
fn is_path(v: &str) -> bool {
    let v = v.trim();
    !v.is_empty()
        && !v.starts_with("http://")
        && !v.starts_with("https://")
        && !v.contains(char::is_whitespace)
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let mut refs: Vec<(String, String)> = BOUNDARY
            .iter()
            .map(|(p, f)| (p.to_string(), f.to_string()))
            .collect();
        for k in consumers(c) {
            for (rel, field) in CONSUMER {
                refs.push((
                    k.ptr(rel),
                    format!("{field} of consumer group {}", k.group()),
                ));
            }
        }
        for (pointer, field) in refs {
            let Some(path) = text(c, &pointer).filter(|v| is_path(v)) else {
                continue;
            };
            // Looked up without leaving the repository (as CL071 does): a
            // contract must not make platcheck touch what lies outside it.
            let report = match crate::read::lookup_inside(&ctx.settings.root, path.trim()) {
                crate::read::Lookup::Found => continue,
                crate::read::Lookup::Missing => c.report(RuleId::EV140, &pointer),
                crate::read::Lookup::Outside => {
                    c.report(RuleId::EV140, &pointer).variant("outside")
                }
            };
            sink.push(
                report
                    .var("field", field)
                    .var("boundary", &c.name)
                    .var("path", path),
            );
        }
    }
}
