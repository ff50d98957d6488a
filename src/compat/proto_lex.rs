//! Tokens of a `.proto` file with their spans; comments and whitespace
//! are dropped here so the parser never sees them.
use super::ParseError;
use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Int(i64),
    Str(String),
    Sym(char),
}

pub(super) struct Lexer {
    pub(super) toks: Vec<(Tok, Span)>,
}

pub(super) fn lex(text: &str) -> Result<Lexer, ParseError> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let err = |at: usize, m: &str| ParseError {
        span: Span::new(at, at + 1),
        message: m.to_string(),
    };
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..]
                .find("*/")
                .ok_or_else(|| err(start, "comment is never closed"))?;
            i += end + 4;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'.' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            toks.push((Tok::Ident(text[start..i].to_string()), Span::new(start, i)));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            let raw = &text[start..i];
            let v = match raw.strip_prefix("0x").or_else(|| raw.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => raw.parse::<i64>().ok(),
            };
            // Floats only occur in option values, which are skipped.
            toks.push((
                v.map_or(Tok::Ident(raw.to_string()), Tok::Int),
                Span::new(start, i),
            ));
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                if b[i.min(b.len() - 1)] == b'\n' {
                    return Err(err(start, "string is never closed"));
                }
                i += 1;
            }
            if i >= b.len() {
                return Err(err(start, "string is never closed"));
            }
            i += 1;
            toks.push((
                Tok::Str(text[start + 1..i - 1].to_string()),
                Span::new(start, i),
            ));
        } else if b"{}[]()<>=;,:-+".contains(&c) {
            i += 1;
            toks.push((Tok::Sym(c as char), Span::new(start, i)));
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(err(start, &format!("unexpected character `{ch}`")));
        }
    }
    Ok(Lexer { toks })
}
