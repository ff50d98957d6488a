//! MR003: the document's gate section contradicts itself (bullets vs
//! command), or a token is not a pattern we can run like grep does.
use crate::emit::Sink;
use crate::mirror::{self, tokens};
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for g in mirror::gated(ctx.ws, &ctx.settings.root, &gates) {
        for r in tokens::resolve(g.file, &g.name, &g.doc, g.gate).problems {
            sink.push(r);
        }
    }
}
