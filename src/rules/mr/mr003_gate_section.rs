//! MR003: the document's gate section contradicts itself (bullets vs
//! command), or a token is not a pattern we can run like grep does, or a
//! code fence before it never closes.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::mirror::{self, tokens};
use crate::registry::RuleCtx;
use crate::source::Span;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for g in mirror::judged(ctx.ws, &ctx.settings.root, &gates) {
        if let Some(at) = g.doc.lone_cr {
            sink.push(Report::new(RuleId::MR003, g.file, Span::new(0, at)).variant("lone_cr"));
            continue;
        }
        if let Some(line) = g.doc.unclosed_fence {
            let start = g.doc.lines[line - 1].start;
            let len = g.doc.line(line).trim_end_matches('\r').len();
            sink.push(
                Report::new(RuleId::MR003, g.file, Span::new(start, start + len))
                    .variant("unclosed_fence"),
            );
        }
        // `resolve` shortens what its reports quote (a 100 KB token).
        for r in tokens::resolve(g.file, &g.name, &g.doc, g.gate).problems {
            sink.push(r);
        }
    }
}
