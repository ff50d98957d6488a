//! CL120: analytical traffic is routed away from the primary.
use super::common::str_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if str_at(c, "/spec/analytics/route") != Some("primary") {
            continue;
        }
        let limit = str_at(c, "/spec/analytics/max_transaction").map_or(String::new(), |t| {
            format!(", even with transactions capped at {t}")
        });
        sink.push(
            c.report(RuleId::CL120, "/spec/analytics/route")
                .var("limit", limit),
        );
    }
}
