//! The statement gate's second reader: every function call anywhere in a
//! statement, inside the bodies and executable comments it carries too,
//! judged by name against each dialect's list of calls that reach outside.
use super::{Escape, MAX_DEPTH, exec_comment, literal_inner};
use crate::sql::Dialect;
use crate::sql::classify::cursor::unquote;
use crate::sql::lexer::{Lexer, Tok, Token};
use crate::sql::verify::{gate_my, gate_pg};

/// Function calls anywhere in the text, bodies included: a name followed by
/// `(`. Streams the tokens, so a 20 MB INSERT costs no memory per token.
pub fn calls(text: &str, dialect: Dialect, base: usize, depth: usize) -> Option<Escape> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut lx = Lexer::new(text, dialect);
    let mut prev: Option<Token> = None;
    while let Some(t) = lx.next_token() {
        let inner = exec_comment(text, &t, dialect).or_else(|| {
            matches!(t.kind, Tok::DollarStr | Tok::Str)
                .then(|| literal_inner(text, &t))
                .flatten()
                // A plain string is data, unless it is a whole body: only
                // dollar quotes and strings that look like code are read.
                .filter(|(a, b)| t.kind == Tok::DollarStr || looks_like_code(&text[*a..*b]))
        });
        if let Some((a, b)) = inner
            && let Some(e) = calls(&text[a..b], dialect, base + a, depth + 1)
        {
            return Some(e);
        }
        if t.is_trivia() {
            continue;
        }
        if t.kind == Tok::Punct
            && &text[t.start..t.end] == "("
            && let Some(p) = prev
            && matches!(p.kind, Tok::Word | Tok::QuotedIdent)
        {
            let raw = &text[p.start..p.end];
            let name = if p.kind == Tok::Word {
                raw.to_ascii_lowercase()
            } else {
                unquote(raw)
            };
            let what = match dialect {
                Dialect::Postgres => gate_pg::call(&name),
                _ => gate_my::call(&name),
            };
            if let Some(what) = what {
                return Some(Escape {
                    at: base + p.start,
                    what,
                });
            }
        }
        prev = Some(t);
    }
    None
}

/// A string literal is read for calls when it reads like a statement
/// (function bodies written as '…', `EXECUTE '…'`), not when it is data.
fn looks_like_code(s: &str) -> bool {
    let head = s
        .trim_start()
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    matches!(
        head.to_ascii_lowercase().as_str(),
        "select"
            | "perform"
            | "begin"
            | "declare"
            | "insert"
            | "update"
            | "delete"
            | "with"
            | "create"
            | "alter"
            | "drop"
            | "copy"
            | "call"
            | "do"
            | "grant"
            | "execute"
            | "set"
            | "values"
            | "return"
    )
}
