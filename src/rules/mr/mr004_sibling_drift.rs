//! MR004: a mirrored section that differs between siblings (diff in help).
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for r in &ctx.siblings().drift {
        sink.push(r.clone());
    }
}
