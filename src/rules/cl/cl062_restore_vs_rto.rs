//! CL062: the measured restore fits inside the recovery time objective.
use super::common::compare_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.clusters() {
        if let Some((took, rto, Ordering::Greater)) =
            compare_at(c, sink, "/spec/restore_drill/duration", "/spec/ha/rto")
        {
            sink.push(
                c.report(RuleId::CL062, "/spec/restore_drill/duration")
                    .var("duration", took)
                    .var("rto", rto),
            );
        }
    }
}
