//! EV132: projections are fed by an explicit consumer, never by database
//! triggers (R-CQRS-SYNC-X2).
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            if consumer.is_true("/read_model/db_triggers") {
                sink.push(
                    c.report(RuleId::EV132, &consumer.ptr("/read_model/db_triggers"))
                        .var("group", consumer.group())
                        .var("projection", consumer.projection()),
                );
            }
        }
    }
}
