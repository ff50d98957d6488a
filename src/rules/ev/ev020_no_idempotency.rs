//! EV020: every consumer of a redelivering boundary needs an idempotency key
//! and a place to remember it.
use super::common::{consumers, delivery, redelivers, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if !redelivers(c) {
            continue;
        }
        let semantics = delivery(c).unwrap_or("at-least-once (the default)");
        for consumer in consumers(c) {
            // A version-guarded projection update is its own dedup
            // (R-CQRS-SYNC-2): the read row's version is the store.
            let version_guarded =
                consumer.text("/read_model/dedup") == Some("version-guarded-update");
            for (rel, variant) in [("/idempotency/key", "key"), ("/idempotency/store", "store")] {
                let node = consumer.get(rel);
                let missing = node.is_none_or(|n| n.as_str() == Some("none"));
                if missing && !(version_guarded && variant == "store") {
                    sink.push(
                        c.report(RuleId::EV020, &consumer.ptr(rel))
                            .variant(variant)
                            .var("group", consumer.group())
                            .var("delivery", semantics)
                            .var("value", written(node)),
                    );
                }
            }
        }
    }
}
