//! CL042: the cross-region failover target is one of the replicated regions
//! and not the primary region itself.
use super::common::{str_at, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const TARGET: &str = "/spec/cross_region/failover_target";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(target) = str_at(c, TARGET) else {
            continue;
        };
        let regions = strings(c, "/spec/cross_region/regions");
        if !regions.contains(&target) {
            let list = if regions.is_empty() {
                "none declared".to_string()
            } else {
                regions.join(", ")
            };
            sink.push(
                c.report(RuleId::CL042, TARGET)
                    .var("target", target)
                    .var("regions", list),
            );
        } else if str_at(c, "/spec/region") == Some(target) {
            sink.push(
                c.report(RuleId::CL042, TARGET)
                    .variant("primary")
                    .var("target", target),
            );
        }
    }
}
