//! MR007: a forbidden token that is a plain English word without anchors.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::mirror::{self, section, vocabulary};
use crate::registry::RuleCtx;
use crate::source::Span;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let gates = mirror::gates(ctx.settings.config_root.as_ref());
    for g in mirror::judged(ctx.ws, &ctx.settings.root, &gates) {
        let Some(s) = section::find(&g.doc) else {
            continue;
        };
        for t in s
            .listed
            .iter()
            .filter(|t| vocabulary::plain_english(&t.pattern))
        {
            sink.push(
                Report::new(
                    RuleId::MR007,
                    g.file,
                    Span::new(t.offset, t.offset + t.pattern.len()),
                )
                .var("token", &t.pattern)
                .var("category", &t.category),
            );
        }
    }
}
