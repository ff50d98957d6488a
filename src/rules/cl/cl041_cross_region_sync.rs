//! CL041: synchronous replication across regions puts an inter-region round
//! trip on every write.
use super::common::{str_at, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::policy;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let exempt_consensus = policy::switch(ctx, "cross_region_consensus", "allow") == "allow";
    for c in ctx.ws.judged_clusters() {
        // A consensus group spread over regions pays the round trip on
        // purpose: the quorum is what survives a region (the anti-pattern is
        // sync replication bolted on to hide application bugs).
        if exempt_consensus && str_at(c, "/spec/ha/topology") == Some("consensus") {
            continue;
        }
        if str_at(c, "/spec/cross_region/mode") == Some("sync") {
            let regions = strings(c, "/spec/cross_region/regions");
            let regions = if regions.is_empty() {
                "its regions".to_string()
            } else {
                regions.join(", ")
            };
            sink.push(
                c.report(RuleId::CL041, "/spec/cross_region/mode")
                    .var("regions", regions),
            );
        } else if str_at(c, "/spec/ha/placement") == Some("cross-region")
            && str_at(c, "/spec/ha/replication") == Some("sync")
        {
            // The standby sits in another region and acknowledges every write.
            sink.push(
                c.report(RuleId::CL041, "/spec/ha/replication")
                    .variant("standby"),
            );
        }
    }
}
