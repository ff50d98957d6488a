//! CL062: the measured restore fits inside the objective for recovering
//! from backup: `backup.rto` when the cluster declares one, else `ha.rto`.
use super::common::{compare_at, node};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // Failover (seconds) and restore (hours) are different recoveries;
        // one RTO for both forces an inflated failover promise.
        let (target, field) = if node(c, "/spec/backup/rto").is_some() {
            ("/spec/backup/rto", "backup.rto")
        } else {
            ("/spec/ha/rto", "ha.rto")
        };
        if let Some((took, rto, Ordering::Greater)) =
            compare_at(c, sink, "/spec/restore_drill/duration", target)
        {
            sink.push(
                c.report(RuleId::CL062, "/spec/restore_drill/duration")
                    .var("duration", took)
                    .var("field", field)
                    .var("rto", rto),
            );
        }
    }
}
