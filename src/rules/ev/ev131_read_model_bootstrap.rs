//! EV131: a projection can be rebuilt from the write side, and its
//! staleness is declared to its readers (R-CQRS-SYNC-3, R-CQRS-SYNC-4).
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            if consumer.get("/read_model").is_none() {
                continue;
            }
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV131, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("projection", consumer.projection())
            };
            if !consumer.is_true("/read_model/bootstrap_rebuild") {
                sink.push(report("/read_model/bootstrap_rebuild", "bootstrap"));
            }
            if consumer.get("/read_model/staleness_declared").is_none() {
                sink.push(report("/read_model/staleness_declared", "staleness"));
            }
        }
    }
}
