//! MR005: a named sibling that does not exist, or a mirrored section on one
//! side only.
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for r in &ctx.siblings().missing {
        sink.push(r.clone());
    }
}
