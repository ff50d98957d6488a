//! PR020: the dedup Redis evicts keys, or runs another policy than declared.
use super::{group, redis_consumers};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f, n, consumer) in redis_consumers(ctx) {
        let observed = f.maxmemory_policy.as_str();
        let declared = consumer
            .pointer("/idempotency/redis/maxmemory_policy")
            .and_then(Node::as_str);
        let base = format!("/spec/consumers/{n}/idempotency");
        let report = |pointer: String| {
            c.report(RuleId::PR020, &pointer)
                .var("group", group(consumer, n))
                .var("target", &p.shown)
                .var("observed", observed)
        };
        match declared {
            Some(d) if d != observed => {
                sink.push(report(format!("{base}/redis/maxmemory_policy")).var("declared", d));
            }
            None if observed != "noeviction" => {
                sink.push(report(format!("{base}/store")).variant("undeclared"));
            }
            _ => {}
        }
    }
}
