//! CL015: with manual failover the RTO cannot be shorter than the time a
//! human needs to promote a replica.
use super::common::{compare_at, node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

const PROMOTION: &str = "/spec/ha/manual_promotion_time";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if str_at(c, "/spec/ha/failover") != Some("manual") {
            continue;
        }
        if node(c, PROMOTION).is_none() {
            sink.push(c.report(RuleId::CL015, PROMOTION).variant("undeclared"));
            continue;
        }
        if let Some((rto, promotion, Ordering::Less)) =
            compare_at(c, sink, "/spec/ha/rto", PROMOTION)
        {
            sink.push(
                c.report(RuleId::CL015, "/spec/ha/rto")
                    .var("rto", rto)
                    .var("promotion", promotion),
            );
        }
    }
}
