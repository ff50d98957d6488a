//! EV001: a boundary must say which delivery semantics it offers.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if c.get("/spec/delivery").is_none() {
            sink.push(
                c.report(RuleId::EV001, "/spec/delivery")
                    .var("boundary", &c.name),
            );
        }
    }
}
