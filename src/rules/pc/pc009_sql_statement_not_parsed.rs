//! PC009: a statement neither sqlparser nor the classifier understands. It
//! is reported where the parser stopped; the rest of the file is analysed.
//! A lexer state that never closes (comment, quote, `BEGIN ATOMIC`, COPY
//! data) hides everything after it, and a statement past one of the
//! analysis limits (tokens, bytes, nesting) was not read to its end: those
//! are errors, located where the state opened or the limit was hit, because
//! a gate must not pass on a file it could not read.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::finding::Severity;
use crate::registry::RuleCtx;
use crate::source::Span;
use crate::sql::Dialect;
use crate::sql::analysis::{FileAnalysis, Stmt, TOKEN_LIMIT};
use crate::sql::lexer::{self, Tok};
use crate::sql::parse::{MAX_PARSE_BYTES, Parsed};

/// sqlparser's own recursion budget (`DEFAULT_REMAINING_DEPTH`): a
/// statement nested deeper fails with "recursion limit exceeded".
const PARSER_DEPTH: usize = 50;

const UNCLOSED_HELP: &str = "close it where it opens: platcheck read everything after it as part of it, so none of that was analysed";
const LIMIT_HELP: &str = "split the statement, or check it by hand and suppress this finding with its reason: platcheck did not analyse the statement to its end, so its locks are unknown";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &ctx.sql().files {
        for st in &fa.stmts {
            let Some((at, detail, severity)) = problem(ctx, fa, st) else {
                continue;
            };
            let text = &ctx.ws.files[fa.file].text;
            let at = floor_boundary(text, at.min(text.len()));
            // The token where parsing stopped.
            let end = text[at..]
                .find(char::is_whitespace)
                .map_or(text.len(), |i| at + i)
                .min(st.span.end.max(at));
            let mut r = Report::new(RuleId::PC009, fa.file, Span::new(at, end.max(at)))
                .var("index", st.index)
                .var("detail", detail)
                .var("dialect", fa.ctx.dialect.as_str())
                .note(fa.note());
            if let Some(help) = severity {
                r = r.severity(Severity::Error).help(help);
            }
            sink.push(r);
        }
    }
}

/// Where the statement's problem is (a file offset), what it is, and the
/// help of an error (`None`: the default warning).
fn problem(
    ctx: &RuleCtx,
    fa: &FileAnalysis,
    st: &Stmt,
) -> Option<(usize, String, Option<&'static str>)> {
    if let Some(e) = &st.split_error {
        let detail = format!("{}; the rest of the file is not analysed", e.what);
        return Some((e.at, detail, Some(UNCLOSED_HELP)));
    }
    let body = statement_text(ctx, fa, st);
    if let Some(at) = past_token_limit(body, fa.ctx.dialect) {
        let detail = format!(
            "it is longer than the {TOKEN_LIMIT} tokens platcheck analyses; nothing from here to its end was analysed"
        );
        return Some((st.span.start + at, detail, Some(LIMIT_HELP)));
    }
    if st.op.is_some() {
        return None;
    }
    match &st.parsed {
        Parsed::Ok => None,
        Parsed::Skipped => {
            let detail = format!(
                "it is larger than the {} MiB the parser reads and not a statement platcheck recognises; nothing from here to its end was analysed",
                MAX_PARSE_BYTES >> 20
            );
            Some((st.span.start + MAX_PARSE_BYTES, detail, Some(LIMIT_HELP)))
        }
        Parsed::Err { message, .. } if message.contains("recursion limit exceeded") => {
            let at = too_deep(body, fa.ctx.dialect).unwrap_or(0);
            let detail = format!(
                "it nests deeper than the {PARSER_DEPTH} levels the parser reads; it was not analysed"
            );
            Some((st.span.start + at, detail, Some(LIMIT_HELP)))
        }
        Parsed::Err { message, at } => Some((st.span.start + at, message.clone(), None)),
    }
}

/// The statement's text as its script has it (see `mg::common::text`).
fn statement_text<'a>(ctx: &RuleCtx<'a>, fa: &'a FileAnalysis, st: &Stmt) -> &'a str {
    let (base, text) = match &fa.window {
        Some((base, t)) => (*base, t.as_str()),
        None => (0, &*ctx.ws.files[fa.file].text),
    };
    text.get(st.span.start - base..st.span.end - base)
        .unwrap_or_default()
}

/// The offset of the first token the analysis did not keep, if the
/// statement has more than [`TOKEN_LIMIT`] (the classifier read its head
/// only). A token is at least a byte, so shorter texts are not lexed again.
fn past_token_limit(body: &str, dialect: Dialect) -> Option<usize> {
    if body.len() <= TOKEN_LIMIT {
        return None;
    }
    lexer::tokens(body, dialect, TOKEN_LIMIT + 1)
        .get(TOKEN_LIMIT)
        .map(|t| t.start)
}

/// The `(` that opens the parser's last allowed level of nesting: where a
/// statement too deep for it becomes unreadable.
fn too_deep(body: &str, dialect: Dialect) -> Option<usize> {
    let mut depth = 0usize;
    for t in lexer::tokens(body, dialect, TOKEN_LIMIT) {
        if t.kind != Tok::Punct {
            continue;
        }
        match &body[t.start..t.end] {
            "(" => {
                depth += 1;
                if depth == PARSER_DEPTH {
                    return Some(t.start);
                }
            }
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
