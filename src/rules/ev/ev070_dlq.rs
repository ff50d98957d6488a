//! EV070: a DLQ without replay tooling and an alert is a graveyard.
use super::common::{consumers, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV070, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("value", written(consumer.get(rel)))
            };
            if consumer.get("/dlq/destination").is_none() {
                sink.push(report("/dlq/destination", "destination"));
            }
            if consumer.get("/dlq/replay_tool").is_none() {
                sink.push(report("/dlq/replay_tool", "replay"));
            }
            if !consumer.is_true("/dlq/alert") {
                sink.push(report("/dlq/alert", "alert"));
            }
        }
    }
}
