//! sqlparser, one statement at a time, and only for statements the
//! classifier cannot read: when it rejects one, its error gives the exact
//! place for PC009. A statement the classifier read is never parsed (its
//! facts come from the tokens either way), which keeps sqlparser off the
//! hot path of large files.
use super::Dialect;
use super::lexer::{Tok, Token};
use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};
use sqlparser::parser::Parser;

/// Statements larger than this skip sqlparser: they are data loads, and a
/// full AST of a 20 MB `INSERT` costs memory for nothing the rules read.
pub const MAX_PARSE_BYTES: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Ok,
    /// Not handed to sqlparser: the classifier read the statement, and
    /// sqlparser's verdict decides nothing then (PC009 needs both to fail).
    Classified,
    /// Too large to hand to sqlparser; only the classifier looked at it.
    Skipped,
    /// sqlparser rejected it (boxed: rare, and every statement keeps its
    /// `Parsed`, so the common variants stay one word).
    Err(Box<ParseError>),
}

/// sqlparser's message and the byte offset (within the statement) it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub at: usize,
}

/// Placeholders (`${var}`, `{{ x }}`, `:var`) become identifiers of the same
/// length, so sqlparser sees valid SQL and its positions still map back.
pub fn mask_placeholders(text: &str, toks: &[Token]) -> Option<String> {
    if !toks.iter().any(|t| t.kind == Tok::Placeholder) {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for t in toks.iter().filter(|t| t.kind == Tok::Placeholder) {
        bytes[t.start..t.end].fill(b'x');
    }
    String::from_utf8(bytes).ok()
}

pub fn parse(text: &str, toks: &[Token], dialect: Dialect) -> Parsed {
    if text.len() > MAX_PARSE_BYTES {
        return Parsed::Skipped;
    }
    let masked = mask_placeholders(text, toks);
    let sql = masked.as_deref().unwrap_or(text);
    let result = match dialect {
        Dialect::Postgres => Parser::parse_sql(&PostgreSqlDialect {}, sql),
        Dialect::MySql | Dialect::MariaDb => Parser::parse_sql(&MySqlDialect {}, sql),
    };
    match result {
        Ok(_) => Parsed::Ok,
        Err(e) => {
            let message = e.to_string();
            let at = error_offset(text, &message);
            let message = message
                .trim_start_matches("sql parser error: ")
                .split(" at Line: ")
                .next()
                .unwrap_or_default()
                .to_string();
            Parsed::Err(Box::new(ParseError { message, at }))
        }
    }
}

/// sqlparser reports `at Line: L, Column: C` (1-based, in chars).
fn error_offset(text: &str, message: &str) -> usize {
    let num = |key: &str| -> Option<usize> {
        let i = message.rfind(key)? + key.len();
        message[i..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    let (Some(line), Some(col)) = (num("Line:"), num("Column:")) else {
        return 0;
    };
    let line_start = text
        .match_indices('\n')
        .nth(line.saturating_sub(2))
        .map_or(0, |(i, _)| if line <= 1 { 0 } else { i + 1 });
    let line_start = if line <= 1 { 0 } else { line_start };
    text[line_start..]
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(text.len(), |(i, _)| line_start + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokens;

    #[test]
    fn templated_statement_parses() {
        let sql = "ALTER TABLE ${schema}.orders ADD COLUMN note text DEFAULT :dflt";
        let toks = tokens(sql, Dialect::Postgres, usize::MAX);
        assert_eq!(parse(sql, &toks, Dialect::Postgres), Parsed::Ok);
    }

    #[test]
    fn error_points_into_the_statement() {
        let sql = "SELECT 1\nFROM WHERE";
        let toks = tokens(sql, Dialect::Postgres, usize::MAX);
        let Parsed::Err(e) = parse(sql, &toks, Dialect::Postgres) else {
            panic!("expected an error");
        };
        let at = e.at;
        assert!(at >= 9, "offset {at} is on line 2");
    }
}
