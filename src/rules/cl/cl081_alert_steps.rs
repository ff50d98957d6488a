//! CL081: alert thresholds are percentages in ascending order, and storage
//! has its last-chance 90% step.
use super::cl080_capacity_incomplete::DIMENSIONS;
use super::common::node;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const STORAGE_STEPS: [i64; 3] = [70, 80, 90];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        for dim in DIMENSIONS {
            let at = format!("/spec/capacity/dimensions/{dim}/alert_at");
            let Some(list) = node(c, &at) else {
                continue;
            };
            let steps: Vec<i64> = list.as_seq().iter().filter_map(|n| n.as_i64()).collect();
            let shown = format!(
                "[{}]",
                steps
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let report = || {
                c.report(RuleId::CL081, &at)
                    .var("dimension", dim)
                    .var("steps", &shown)
            };
            if let Some(bad) = steps.iter().find(|p| !(1..=100).contains(*p)) {
                sink.push(report().variant("range").var("step", bad));
            } else if steps.windows(2).any(|w| w[0] >= w[1]) {
                sink.push(report());
            } else if dim == "storage" {
                // Capacity planning: storage alerts at 70 / 80 / 90 %, each
                // step with its response; a lone 90% leaves no time to act.
                let missing: Vec<String> = STORAGE_STEPS
                    .iter()
                    .filter(|p| !steps.contains(p))
                    .map(|p| format!("{p}%"))
                    .collect();
                if !missing.is_empty() {
                    sink.push(
                        report()
                            .variant("storage")
                            .var("missing", missing.join(", ")),
                    );
                }
            }
        }
    }
}
