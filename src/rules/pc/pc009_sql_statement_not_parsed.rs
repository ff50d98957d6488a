//! PC009: a statement neither sqlparser nor the classifier understands. It
//! is reported where the parser stopped; the rest of the file is analysed.
//! A lexer state that never closes (comment, quote, `BEGIN ATOMIC`, COPY
//! data) hides everything after it, so that one is an error: a gate must
//! not pass on a file it could not read.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::finding::Severity;
use crate::registry::RuleCtx;
use crate::source::Span;
use crate::sql::parse::Parsed;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &ctx.sql().files {
        for st in &fa.stmts {
            let unclosed = st.split_error.is_some();
            let (at, detail) = match (&st.split_error, &st.op, &st.parsed) {
                (Some(e), _, _) => (
                    e.at,
                    format!("{}; the rest of the file is not analysed", e.what),
                ),
                (None, None, Parsed::Err { message, at }) => (st.span.start + at, message.clone()),
                (None, None, Parsed::Skipped) => (
                    st.span.start,
                    "too large for the parser and not a statement platcheck recognises".to_string(),
                ),
                _ => continue,
            };
            let text = &ctx.ws.files[fa.file].text;
            // The token where parsing stopped.
            let end = text[at.min(text.len())..]
                .find(char::is_whitespace)
                .map_or(text.len(), |i| at + i)
                .min(st.span.end.max(at));
            let mut r = Report::new(RuleId::PC009, fa.file, Span::new(at, end.max(at)))
                .var("index", st.index)
                .var("detail", detail)
                .var("dialect", fa.ctx.dialect.as_str())
                .note(fa.note());
            if unclosed {
                r = r.severity(Severity::Error).help(
                    "close it where it opens: platcheck read everything after it as part of it, so none of that was analysed",
                );
            }
            sink.push(r);
        }
    }
}
