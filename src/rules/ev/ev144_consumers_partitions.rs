//! EV144: a consumer group's parallelism is capped by the partition count.
use super::common::{broker_kind, consumers, partition_assigned};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if !partition_assigned(broker_kind(c)) {
            continue;
        }
        let Some(partitions) = c.get("/spec/broker/partitions").and_then(Node::as_i64) else {
            continue;
        };
        for k in consumers(c) {
            let Some(n) = k.get("/instances").and_then(Node::as_i64) else {
                continue;
            };
            if n > partitions {
                sink.push(
                    c.report(RuleId::EV144, &k.ptr("/instances"))
                        .var("group", k.group())
                        .var("instances", n)
                        .var("partitions", partitions)
                        .var("idle", n - partitions),
                );
            }
        }
    }
}
