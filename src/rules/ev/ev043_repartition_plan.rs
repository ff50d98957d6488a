//! EV043: Kafka partitions are costly to change later; the growth path is
//! planned up front. Other brokers scale differently, so this is Kafka only.
use super::common::{broker_kind, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if broker_kind(c) != Some("kafka") || c.get("/spec/ordering/repartition_plan").is_some() {
            continue;
        }
        sink.push(
            c.report(RuleId::EV043, "/spec/ordering/repartition_plan")
                .var("boundary", &c.name)
                .var("topic", text(c, "/spec/broker/topic").unwrap_or(&c.name)),
        );
    }
}
