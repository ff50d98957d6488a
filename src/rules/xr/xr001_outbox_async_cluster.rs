//! XR001: the outbox is only as durable as the cluster it lives on. If that
//! cluster can lose acknowledged writes in a failover (rpo > 0), the poller
//! may already have published an event whose state is then gone.
use crate::catalog::RuleId;
use crate::contracts::Kind;
use crate::contracts::units::Duration;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::ev::common::{text, written};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let pointer = "/spec/producer/outbox/cluster";
        let Some(cluster) = text(c, pointer).and_then(|n| ctx.ws.find(Kind::Cluster, n)) else {
            continue;
        };
        let Some(rpo) = text(cluster, "/spec/ha/rpo").and_then(|r| Duration::parse(r).ok()) else {
            continue;
        };
        if rpo.is_zero() {
            continue;
        }
        sink.push(
            c.report(RuleId::XR001, pointer)
                .var("boundary", &c.name)
                .var("cluster", &cluster.name)
                .var("rpo", rpo)
                .var("replication", written(cluster.get("/spec/ha/replication"))),
        );
    }
}
