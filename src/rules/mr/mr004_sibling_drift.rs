//! MR004: a mirrored section that differs between siblings (diff in help).
use crate::emit::Sink;
use crate::mirror::{self, siblings};
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    let gated = mirror::gated(ctx.ws, &ctx.settings.root, &gates);
    for r in siblings::analyze(
        &gated,
        &ctx.ws.files,
        &ctx.settings.root,
        &ctx.settings.scope,
    )
    .drift
    {
        sink.push(r);
    }
}
