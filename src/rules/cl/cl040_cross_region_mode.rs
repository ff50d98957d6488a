//! CL040: a multi-region cluster declares its cross-region replication mode,
//! and residency commitments are enforced where the data lives.
use super::common::{node, str_at, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const MODE: &str = "/spec/cross_region/mode";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let regions = strings(c, "/spec/cross_region/regions");
        let cross_placement = str_at(c, "/spec/ha/placement") == Some("cross-region");
        if node(c, MODE).is_none() && (regions.len() > 1 || cross_placement) {
            let why = if regions.len() > 1 {
                format!("the cluster spans {}", regions.join(", "))
            } else {
                "ha.placement is cross-region".to_string()
            };
            sink.push(c.report(RuleId::CL040, MODE).var("why", why));
        }
        let residency = node(c, "/spec/cross_region/residency").map_or(0, |n| n.as_seq().len());
        for i in 0..residency {
            let at = format!("/spec/cross_region/residency/{i}/enforced_at");
            let enforced = str_at(c, &at);
            if enforced == Some("data-plane") {
                continue;
            }
            let tenants =
                str_at(c, &format!("/spec/cross_region/residency/{i}/tenants")).unwrap_or("?");
            let region =
                str_at(c, &format!("/spec/cross_region/residency/{i}/region")).unwrap_or("?");
            sink.push(
                c.report(RuleId::CL040, &at)
                    .variant("residency")
                    .var("tenants", tenants)
                    .var("region", region)
                    .var("enforced", enforced.unwrap_or("not declared")),
            );
        }
    }
}
