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
    for g in mirror::gated(ctx.ws, &ctx.settings.root, &gates) {
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
        for r in tokens::resolve(g.file, &g.name, &g.doc, g.gate).problems {
            sink.push(shorten(r));
        }
    }
}

/// Longest token, command or detail a message quotes whole.
const MAX_QUOTED: usize = 120;

/// A hostile token (100 KB of parentheses) is quoted by its head, an
/// ellipsis and its size: the finding points at it, and every output
/// format would otherwise repeat all of it (the detail too, which quotes it).
fn shorten(mut r: Report) -> Report {
    for (_, v) in &mut r.vars {
        if v.len() > MAX_QUOTED {
            let mut cut = MAX_QUOTED;
            while !v.is_char_boundary(cut) {
                cut -= 1;
            }
            *v = format!("{}… [{} bytes]", &v[..cut], v.len());
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_are_cut_with_their_size() {
        let r = Report::new(RuleId::MR003, 0, Span::empty(0))
            .var("token", "é".repeat(50_000))
            .var("detail", "short");
        let r = shorten(r);
        assert_eq!(r.vars[0].1, format!("{}… [100000 bytes]", "é".repeat(60)));
        assert_eq!(r.vars[1].1, "short");
    }
}
