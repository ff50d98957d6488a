//! CL011: an RPO of zero is only possible when the failover target receives
//! every write synchronously.
use super::common::{duration_at, node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(rpo) = duration_at(c, "/spec/ha/rpo").filter(|d| d.is_zero()) else {
            continue;
        };
        let base = || c.report(RuleId::CL011, "/spec/ha/rpo").var("rpo", rpo);
        let replication = str_at(c, "/spec/ha/replication");
        if replication == Some("async") {
            sink.push(base().var("replication", "async"));
        } else if str_at(c, "/spec/ha/topology") == Some("primary-async-replicas") {
            sink.push(base().variant("topology"));
        } else if str_at(c, "/spec/cross_region/mode") == Some("async")
            && node(c, "/spec/cross_region/failover_target").is_some()
        {
            let target = str_at(c, "/spec/cross_region/failover_target").unwrap_or_default();
            sink.push(base().variant("cross_region").var("target", target));
        }
    }
}
