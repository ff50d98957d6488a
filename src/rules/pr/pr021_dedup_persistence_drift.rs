//! PR021: a dedup Redis declared persistent that forgets its keys on a
//! restart or a node loss, or a dedup URL that reaches a replica.
use super::{group, redis_consumers};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f, n, consumer) in redis_consumers(ctx) {
        let base = format!("/spec/consumers/{n}/idempotency");
        let report = |pointer: String| {
            c.report(RuleId::PR021, &pointer)
                .var("group", group(consumer, n))
                .var("target", &p.shown)
        };
        if f.role != "master" {
            sink.push(
                report(format!("{base}/store"))
                    .variant("role")
                    .var("role", &f.role),
            );
            continue;
        }
        let declared = consumer
            .pointer("/idempotency/redis/persistence")
            .and_then(Node::as_bool);
        if declared != Some(true) {
            continue;
        }
        let pointer = format!("{base}/redis/persistence");
        if !f.persistent() {
            sink.push(report(pointer));
        } else if f.connected_replicas == 0 {
            sink.push(report(pointer).variant("replicas"));
        }
    }
}
