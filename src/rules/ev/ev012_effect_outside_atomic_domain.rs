//! EV012: exactly-once fails on any effect outside the atomic domain.
use super::common::{consumers, delivery, is_cross_system, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if delivery(c) != Some("exactly-once") {
            continue;
        }
        // A publish made by the broker's transactional producer, in the same
        // transaction as the offset, is inside the atomic domain (handbook
        // §3.5, consume-transform-produce); every other cross-system effect is not.
        let broker_tx = text(c, "/spec/exactly_once/atomic_commit") == Some("broker-transactions");
        for consumer in consumers(c) {
            for effect in consumer.effects() {
                let Some(kind) = effect.kind().filter(|k| is_cross_system(k)) else {
                    continue;
                };
                if kind == "broker-publish" && broker_tx {
                    continue;
                }
                sink.push(
                    c.report(RuleId::EV012, &format!("{}/kind", effect.base))
                        .var("boundary", &c.name)
                        .var("group", consumer.group())
                        .var("kind", kind),
                );
            }
        }
    }
}
