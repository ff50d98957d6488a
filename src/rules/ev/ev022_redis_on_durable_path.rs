//! EV022: Redis on a durable dedup path must not evict or forget keys, and
//! may only cache keys whose durable record has committed.
use super::common::{consumers, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let store = consumer.text("/idempotency/store");
            // Plain redis is fine for lossy, rebuildable effects: losing a key
            // costs one repairable duplicate.
            let durable_path = match store {
                Some("redis-fronted-durable") => true,
                Some("redis") => consumer.has_critical_effect(),
                _ => false,
            };
            if !durable_path {
                continue;
            }
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV022, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("value", written(consumer.get(rel)))
            };
            let policy = "/idempotency/redis/maxmemory_policy";
            if consumer.text(policy) != Some("noeviction") {
                sink.push(report(policy, "policy"));
            }
            let persistence = "/idempotency/redis/persistence";
            if !consumer.is_true(persistence) {
                sink.push(report(persistence, "persistence"));
            }
            let after = "/idempotency/redis/cache_after_commit";
            if store == Some("redis-fronted-durable") && !consumer.is_true(after) {
                sink.push(report(after, "cache_order"));
            }
        }
    }
}
