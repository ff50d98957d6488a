//! EV030: publishing after commit (or straight to the broker) without an
//! outbox loses the event on a crash in between; only same-process,
//! rebuildable notifications may do that.
use super::common::{and_list, other_consumer_services, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let Some(publish @ ("post-commit" | "direct")) = text(c, "/spec/producer/publish") else {
            continue;
        };
        let producer = text(c, "/spec/producer/service");
        let others = other_consumer_services(c);
        if others.is_empty() {
            continue;
        }
        sink.push(
            c.report(RuleId::EV030, "/spec/producer/publish")
                .var("producer", producer.unwrap_or("the producer"))
                .var("boundary", &c.name)
                .var("publish", publish)
                .var("services", and_list(&others)),
        );
    }
}
