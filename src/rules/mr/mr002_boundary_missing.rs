//! MR002: no boundary heading (or an invalid configured boundary), so the
//! mirrored region cannot be computed. Also carries the config problems of
//! `mirror_gates` found while reading it.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::mirror;
use crate::registry::RuleCtx;
use crate::source::Span;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for r in &gates.problems {
        sink.push(r.clone());
    }
    for g in mirror::judged(ctx.ws, &ctx.settings.root, &gates) {
        if g.doc.boundary.is_none() {
            sink.push(
                Report::new(RuleId::MR002, g.file, Span::empty(0))
                    .var("boundary", &g.gate.boundary_text)
                    .var("gate", &g.gate.name),
            );
        }
    }
}
