//! MR001: a forbidden token in the mirrored region, one finding per
//! (line, token), exactly on the lines the document's own grep prints.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::mirror::{self, tokens};
use crate::registry::RuleCtx;
use crate::source::Span;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for g in mirror::judged(ctx.ws, &ctx.settings.root, &gates) {
        let Some(boundary) = g.doc.boundary else {
            continue;
        };
        let resolved = tokens::resolve(g.file, &g.name, &g.doc, g.gate);
        for hit in mirror::hits(&g.doc, &resolved.tokens) {
            let tok = &resolved.tokens[hit.token];
            sink.push(
                Report::new(RuleId::MR001, g.file, Span::new(hit.start, hit.end))
                    .var("text", &g.doc.text[hit.start..hit.end])
                    .var("token", &tok.pattern)
                    .var("category", &tok.category)
                    .var("stack", g.doc.stack.as_deref().unwrap_or("stack"))
                    .var("boundary", g.doc.line(boundary).trim_end())
                    .var("boundary_line", boundary),
            );
        }
    }
}
