//! EV024: for DB-local effects the dedup record belongs in the effect's own
//! transaction.
use super::common::{consumers, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let durable = matches!(
                consumer.text("/idempotency/store"),
                Some("durable-db" | "redis-fronted-durable")
            );
            let db_local = consumer.effects().any(|e| e.kind() == Some("db-local"));
            let rel = "/idempotency/same_transaction";
            if durable && db_local && !consumer.is_true(rel) {
                sink.push(
                    c.report(RuleId::EV024, &consumer.ptr(rel))
                        .var("group", consumer.group())
                        .var("value", written(consumer.get(rel))),
                );
            }
        }
    }
}
