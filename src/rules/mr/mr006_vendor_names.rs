//! MR006 (notice): vendor names from the Sanitization boundary list in
//! mirrored content, one notice per vendor at its first mention.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::mirror::{self, vocabulary};
use crate::registry::RuleCtx;
use crate::source::Span;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for g in mirror::judged(ctx.ws, &ctx.settings.root, &gates) {
        let Some(para) = g.doc.header_para("Sanitization boundary.") else {
            continue;
        };
        for vendor in vocabulary::vendors(&para) {
            let seen = vocabulary::mentions(&g.doc, &para, &vendor);
            let Some(&(_, start, end)) = seen.first() else {
                continue;
            };
            let others: Vec<String> = seen[1..].iter().map(|m| m.0.to_string()).collect();
            let more = match others.len() {
                0 => String::new(),
                1 => format!("; also on line {}", others[0]),
                n if n <= 8 => format!("; also on lines {}", others.join(", ")),
                n => format!(
                    "; also on lines {} and {} more",
                    others[..8].join(", "),
                    n - 8
                ),
            };
            sink.push(
                Report::new(RuleId::MR006, g.file, Span::new(start, end))
                    .var("vendor", &vendor)
                    .var("count", seen.len())
                    .var("more", more),
            );
        }
    }
}
