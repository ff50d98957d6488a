//! EV122: a transactional producer only helps consumers that read committed
//! records; read-uncommitted consumers see aborted transactions.
use super::common::{broker_kind, consumers, delivery, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let transactional = delivery(c) == Some("exactly-once")
            && (text(c, "/spec/exactly_once/atomic_commit") == Some("broker-transactions")
                || text(c, "/spec/exactly_once/publish") == Some("transactional-producer"))
            || text(c, "/spec/producer/publish") == Some("transactional-producer");
        if !transactional {
            continue;
        }
        for consumer in consumers(c) {
            let pointer = consumer.ptr("/isolation");
            let variant = match consumer.text("/isolation") {
                Some("read-uncommitted") => "explicit",
                // Kafka consumers default to read_uncommitted.
                None if broker_kind(c) == Some("kafka") => "default",
                _ => continue,
            };
            sink.push(
                c.report(RuleId::EV122, &pointer)
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("boundary", &c.name),
            );
        }
    }
}
