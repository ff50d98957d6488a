//! EV021: Redis may front a durable dedup store, never be its only authority
//! for effects that must not repeat.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            if consumer.text("/idempotency/store") != Some("redis") {
                continue;
            }
            let Some(effect) = consumer.effects().find(|e| e.is_critical()) else {
                continue;
            };
            let what = match effect.class().filter(|k| super::common::is_critical(k)) {
                Some(class) => class.to_string(),
                None => format!("irreversible {}", effect.kind().unwrap_or_default()),
            };
            sink.push(
                c.report(RuleId::EV021, &consumer.ptr("/idempotency/store"))
                    .var("group", consumer.group())
                    .var("class", what),
            );
        }
    }
}
