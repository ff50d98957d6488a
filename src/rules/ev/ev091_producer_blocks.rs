//! EV091: a producer whose broker buffer is full waits a bounded time or
//! sheds load; it never blocks forever.
use super::common::text;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if text(c, "/spec/producer/full_buffer") == Some("block") {
            sink.push(
                c.report(RuleId::EV091, "/spec/producer/full_buffer")
                    .var("boundary", &c.name)
                    .var(
                        "producer",
                        text(c, "/spec/producer/service").unwrap_or("the producer"),
                    ),
            );
        }
    }
}
