//! CL080: every capacity dimension has a limit, alert thresholds and a
//! response runbook.
use super::common::missing;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub const DIMENSIONS: [&str; 5] = [
    "storage",
    "iops",
    "connections",
    "latency_p99",
    "replica_lag",
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required: Vec<String> = DIMENSIONS
        .iter()
        .flat_map(|d| {
            ["limit", "alert_at", "runbook"].map(|k| format!("/spec/capacity/dimensions/{d}/{k}"))
        })
        .collect();
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL080, &required) {
            sink.push(r);
        }
    }
}
