//! MR004: a mirrored section that differs between siblings (diff in help).
use crate::emit::Sink;
use crate::mirror::{self, siblings};
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx);
    let gated = mirror::gated(ctx, &gates);
    for r in siblings::analyze(&gated, &ctx.ws.files, &ctx.settings.root).drift {
        sink.push(r);
    }
}
