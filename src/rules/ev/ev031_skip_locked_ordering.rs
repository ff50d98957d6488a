//! EV031: SKIP LOCKED lets a later row overtake a locked earlier one, so
//! several pollers and per-key ordering need an explicit strategy.
use super::common::{ordering_required, text};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let pollers = c
            .get("/spec/producer/outbox/pollers")
            .and_then(Node::as_i64)
            .unwrap_or(1);
        if !ordering_required(c)
            || text(c, "/spec/producer/outbox/claim") != Some("skip-locked")
            || pollers < 2
            || c.get("/spec/producer/outbox/ordering/strategy").is_some()
        {
            continue;
        }
        sink.push(
            c.report(RuleId::EV031, "/spec/producer/outbox/ordering/strategy")
                .var("boundary", &c.name)
                .var("pollers", pollers)
                .var(
                    "key",
                    text(c, "/spec/ordering/partition_key").unwrap_or("partition key"),
                ),
        );
    }
}
