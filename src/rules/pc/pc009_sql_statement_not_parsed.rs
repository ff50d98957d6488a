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

mod depth;

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
    // A data load (`INSERT … VALUES` of literal rows) hides nothing in its
    // tail: its locks are its head's, so a limit it passes is no error.
    let load = body.len() > TOKEN_LIMIT && literal_rows(body, fa.ctx.dialect);
    if let Some(at) = past_token_limit(body, fa.ctx.dialect).filter(|_| !load) {
        let detail = format!(
            "it is longer than the {TOKEN_LIMIT} tokens platcheck analyses; nothing from here to its end was analysed"
        );
        return Some((st.span.start + at, detail, Some(LIMIT_HELP)));
    }
    if st.op.is_some() {
        return None;
    }
    match &st.parsed {
        // The classifier read it (and `op` is set): sqlparser was not asked.
        Parsed::Ok | Parsed::Classified => None,
        Parsed::Skipped if load => Some((
            st.span.start,
            "too large for the parser and not a statement platcheck recognises".to_string(),
            None,
        )),
        Parsed::Skipped => {
            let detail = format!(
                "it is larger than the {} MiB the parser reads and not a statement platcheck recognises; nothing from here to its end was analysed",
                MAX_PARSE_BYTES >> 20
            );
            Some((st.span.start + MAX_PARSE_BYTES, detail, Some(LIMIT_HELP)))
        }
        Parsed::Err(e) => {
            let (message, at) = (&e.message, &e.at);
            // Too deep by platcheck's own count, or by the parser's word for
            // it: either way the parser stopped short, and it is an error
            // where the nesting goes past what the parser reads.
            // An error the parser locates before that point is another one.
            let n = depth::nesting(body, fa.ctx.dialect);
            let deep = n
                .past_limit
                .filter(|&p| *at == 0 || *at >= p)
                .or_else(|| depth::is_recursion_error(message).then_some(n.deepest));
            let Some(deep) = deep else {
                return Some((st.span.start + at, message.clone(), None));
            };
            let detail = format!(
                "it nests deeper than the {} levels the parser reads; it was not analysed",
                depth::PARSER_DEPTH
            );
            Some((st.span.start + deep, detail, Some(LIMIT_HELP)))
        }
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

/// Whether the statement is `INSERT`/`REPLACE … VALUES` followed by
/// literal rows only (strings, numbers, NULL/TRUE/FALSE/DEFAULT, signs,
/// casts, placeholders), optionally ending in `ON CONFLICT [(cols)] DO
/// NOTHING`: nothing in such a tail can take a lock or call a function.
fn literal_rows(body: &str, dialect: Dialect) -> bool {
    let mut lx = lexer::Lexer::new(body, dialect);
    let mut toks = std::iter::from_fn(|| lx.next_token()).filter(|t| !t.is_trivia());
    let word = |t: &lexer::Token| body[t.start..t.end].to_ascii_lowercase();
    if !toks
        .next()
        .is_some_and(|t| t.kind == Tok::Word && matches!(word(&t).as_str(), "insert" | "replace"))
    {
        return false;
    }
    let mut depth = 0usize;
    let mut rows = false;
    let mut after_cast = false;
    let mut tail: Vec<String> = Vec::new();
    for t in toks {
        if t.unterminated {
            return false;
        }
        let text = &body[t.start..t.end];
        if !tail.is_empty() {
            tail.push(if t.kind == Tok::Word {
                word(&t)
            } else {
                text.to_string()
            });
            continue;
        }
        if t.kind == Tok::Punct {
            match text {
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if !rows {
            rows = depth == 0 && t.kind == Tok::Word && word(&t) == "values";
            continue;
        }
        let cast = std::mem::take(&mut after_cast);
        let ok = match t.kind {
            Tok::Str | Tok::Number | Tok::Placeholder | Tok::Param => true,
            Tok::Punct => {
                after_cast = text == "::";
                matches!(text, "(" | ")" | "," | "-" | "+" | "::" | "." | "[" | "]")
            }
            Tok::Word if cast => true,
            Tok::Word => match word(&t).as_str() {
                "null" | "true" | "false" | "default" => true,
                "on" if depth == 0 => {
                    tail.push("on".into());
                    true
                }
                _ => false,
            },
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    if tail.is_empty() {
        return rows;
    }
    // `on conflict [( a , b )] do nothing`
    let t: Vec<&str> = tail.iter().map(String::as_str).collect();
    let cols_ok = |c: &[&str]| {
        c.first() == Some(&"(")
            && c.last() == Some(&")")
            && c[1..c.len() - 1].iter().all(|w| {
                *w == ","
                    || w.chars()
                        .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '"')
            })
    };
    match t.as_slice() {
        ["on", "conflict", "do", "nothing"] => true,
        ["on", "conflict", cols @ .., "do", "nothing"] => cols.len() >= 2 && cols_ok(cols),
        _ => false,
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_rows_are_data_and_anything_else_is_not() {
        let pg = Dialect::Postgres;
        for ok in [
            "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, NULL), (3, '{}'::jsonb)",
            "insert into s.t values (DEFAULT, true, 1.5e3, ${v})",
            "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING",
            "INSERT INTO t VALUES (1) ON CONFLICT (a, b) DO NOTHING",
        ] {
            assert!(literal_rows(ok, pg), "{ok}");
        }
        for bad in [
            "INSERT INTO t VALUES (1, now())",
            "INSERT INTO t VALUES (1, (SELECT 1))",
            "INSERT INTO t SELECT 1",
            "INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2",
            "INSERT INTO t VALUES (1); DROP TABLE t",
            "ALTER TABLE t ADD COLUMN a int DEFAULT 1",
            "INSERT INTO t VALUES ('unterminated",
        ] {
            assert!(!literal_rows(bad, pg), "{bad}");
        }
    }
}
