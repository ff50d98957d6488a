//! CL071: scale-up, scale-out and decommission runbooks are written down and
//! exist in the repository.
//!
//! Paths are resolved against the directory of the platcheck.yaml in use
//! (the working directory when there is none), the same root the include
//! globs use; `http(s)://` links point outside the repo and are not checked.
//! A path that leaves the repository (absolute, `..`, a link out) is
//! reported as such, never looked up.
use super::common::{missing, node, str_at, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::read::Lookup;
use crate::registry::RuleCtx;

const STEPS: [&str; 3] = ["scale_up", "scale_out", "decommission"];

/// Checklist item 8's decommission sequence, in order.
const DECOMMISSION: [&str; 4] = ["drain", "observe", "snapshot", "destroy"];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under("/spec/lifecycle/runbooks", &STEPS);
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL071, &required) {
            sink.push(r);
        }
        // A declared sequence must be the whole one, in order: destroying
        // before the snapshot, or without watching for stray traffic after
        // the drain, is how a cluster that looked idle takes data with it.
        let at = "/spec/lifecycle/decommission_steps";
        if let Some(list) = node(c, at) {
            let steps: Vec<&str> = list.as_seq().iter().filter_map(|n| n.as_str()).collect();
            if steps != DECOMMISSION {
                sink.push(
                    c.report(RuleId::CL071, at)
                        .variant("decommission")
                        .var("steps", format!("[{}]", steps.join(", "))),
                );
            }
        }
        for step in STEPS {
            let at = format!("/spec/lifecycle/runbooks/{step}");
            let Some(path) = str_at(c, &at) else {
                continue;
            };
            if path.starts_with("https://") || path.starts_with("http://") {
                continue;
            }
            // Looked up without leaving the repository: a contract must
            // not learn (or make platcheck touch) what lies outside it.
            let variant = match crate::read::lookup_inside(&ctx.settings.root, path) {
                Lookup::Found => continue,
                Lookup::Missing => "not_found",
                Lookup::Outside => "outside",
            };
            sink.push(
                c.report(RuleId::CL071, &at)
                    .variant(variant)
                    .var("step", step)
                    .var("path", path),
            );
        }
    }
}
