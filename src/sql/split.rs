//! Splits a migration file into statements at top-level terminators (`;`, or
//! the MySQL client's `DELIMITER`), never inside strings, quoted
//! identifiers, dollar quotes, comments or a `BEGIN ATOMIC … END` body.
//!
//! The pieces tile the input exactly: every byte belongs to exactly one
//! piece, so nothing is lost or counted twice (see the property tests).
use super::Dialect;
use super::lexer::{Lexer, Tok};
use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Leading trivia, the statement and its terminator.
    pub span: Span,
    /// The statement text alone: first to last significant token. Empty for
    /// trivia-only pieces (comments at the end of a file, `DELIMITER` lines).
    pub body: Span,
    /// Why the statement cannot be trusted as written (unterminated quote).
    pub error: Option<SplitError>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError {
    pub at: usize,
    pub what: &'static str,
}

impl Piece {
    pub fn is_statement(&self) -> bool {
        !self.body.is_empty()
    }
}

pub fn split(text: &str, dialect: Dialect) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut lx = Lexer::new(text, dialect);
    let mut piece_start = 0;
    let mut body: Option<Span> = None;
    let mut error = None;
    let mut delimiter: Option<String> = None;
    // Words seen so far in this statement, to spot `BEGIN ATOMIC` bodies.
    let mut atomic_depth = 0usize;
    let mut prev_word = "";
    let mut first_word = "";
    loop {
        let at = lx.pos;
        if at >= text.len() {
            break;
        }
        // The MySQL client command `DELIMITER x` at the start of a statement.
        if dialect.is_mysql()
            && body.is_none()
            && line_start(text, at)
            && starts_with_ci(&text[at..], "delimiter ")
        {
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            let d = text[at + 10..end].trim();
            delimiter = (!d.is_empty() && d != ";").then(|| d.to_string());
            lx.pos = end;
            out.push(Piece {
                span: Span::new(piece_start, end),
                body: Span::empty(end),
                error: None,
            });
            piece_start = end;
            continue;
        }
        if let Some(d) = &delimiter
            && text[at..].starts_with(d.as_str())
        {
            let end = at + d.len();
            lx.pos = end;
            finish(&mut out, &mut piece_start, end, &mut body, &mut error);
            atomic_depth = 0;
            first_word = "";
            continue;
        }
        let Some(mut t) = lx.next_token() else { break };
        // The client looks for a custom delimiter anywhere outside quotes and
        // comments, also glued to a word: `END$$` ends the body when the
        // delimiter is `$$`, although `$` is an identifier character.
        if let Some(d) = &delimiter
            && matches!(t.kind, Tok::Word | Tok::Number | Tok::Punct | Tok::Param)
            && let Some(k) = text[t.start..t.end].find(d.as_str()).filter(|k| *k > 0)
        {
            t.end = t.start + k;
            lx.pos = t.end;
        }
        if t.unterminated && error.is_none() {
            let what = match t.kind {
                Tok::Str => "unterminated string",
                Tok::QuotedIdent => "unterminated quoted identifier",
                Tok::DollarStr => "unterminated dollar-quoted string",
                _ => "unterminated comment",
            };
            error = Some(SplitError { at: t.start, what });
        }
        if t.is_trivia() {
            continue;
        }
        if t.kind == Tok::Semicolon && delimiter.is_none() && atomic_depth == 0 {
            finish(&mut out, &mut piece_start, t.end, &mut body, &mut error);
            first_word = "";
            continue;
        }
        body = Some(match body {
            Some(b) => Span::new(b.start, t.end),
            None => Span::new(t.start, t.end),
        });
        if t.kind == Tok::Word {
            let w = &text[t.start..t.end];
            if first_word.is_empty() {
                first_word = w;
            }
            // SQL-standard function bodies (PostgreSQL 14+) contain `;`.
            if first_word.eq_ignore_ascii_case("create") {
                let opens_atomic =
                    w.eq_ignore_ascii_case("atomic") && prev_word.eq_ignore_ascii_case("begin");
                let opens_case = w.eq_ignore_ascii_case("case") && atomic_depth > 0;
                if opens_atomic || opens_case {
                    atomic_depth += 1;
                } else if w.eq_ignore_ascii_case("end") && atomic_depth > 0 {
                    atomic_depth -= 1;
                }
            }
            prev_word = w;
        }
    }
    if piece_start < text.len() {
        let end = text.len();
        finish(&mut out, &mut piece_start, end, &mut body, &mut error);
    }
    out
}

fn finish(
    out: &mut Vec<Piece>,
    piece_start: &mut usize,
    end: usize,
    body: &mut Option<Span>,
    error: &mut Option<SplitError>,
) {
    out.push(Piece {
        span: Span::new(*piece_start, end),
        body: body.take().unwrap_or(Span::empty(end)),
        error: error.take(),
    });
    *piece_start = end;
}

fn line_start(text: &str, at: usize) -> bool {
    text[..at]
        .bytes()
        .rev()
        .take_while(|c| *c != b'\n')
        .all(|c| c == b' ' || c == b'\t')
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(text: &str, d: Dialect) -> Vec<&str> {
        split(text, d)
            .into_iter()
            .filter(|p| p.is_statement())
            .map(|p| &text[p.body.start..p.body.end])
            .collect()
    }

    #[test]
    fn strings_comments_and_dollar_quotes_hide_semicolons() {
        let sql = "SELECT ';'; -- a;b\nCREATE FUNCTION f() RETURNS int AS $f$ SELECT 1; $f$ LANGUAGE sql;\n/* x; /* y; */ z; */ SELECT \"a;b\"";
        assert_eq!(
            bodies(sql, Dialect::Postgres),
            vec![
                "SELECT ';'",
                "CREATE FUNCTION f() RETURNS int AS $f$ SELECT 1; $f$ LANGUAGE sql",
                "SELECT \"a;b\""
            ]
        );
    }

    #[test]
    fn mysql_delimiter() {
        let sql = "DELIMITER //\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END//\nDELIMITER ;\nSELECT 1;";
        assert_eq!(
            bodies(sql, Dialect::MySql),
            vec![
                "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END",
                "SELECT 1"
            ]
        );
    }

    #[test]
    fn mysql_delimiter_glued_to_a_word() {
        let sql = "DELIMITER $$\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END$$\nDELIMITER ;\nALTER TABLE a ADD COLUMN y int;";
        assert_eq!(
            bodies(sql, Dialect::MySql),
            vec![
                "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END",
                "ALTER TABLE a ADD COLUMN y int"
            ]
        );
    }

    #[test]
    fn a_lone_cr_ends_a_postgres_comment_but_not_a_mysql_one() {
        let sql = "SELECT 1 -- x\r; COMMIT; CREATE TABLE t (a int);";
        assert_eq!(
            bodies(sql, Dialect::Postgres),
            vec!["SELECT 1", "COMMIT", "CREATE TABLE t (a int)"]
        );
        assert_eq!(
            bodies(sql, Dialect::MariaDb),
            vec!["SELECT 1 -- x\r; COMMIT; CREATE TABLE t (a int)"]
                .into_iter()
                .map(|s| s.split(" -- ").next().unwrap())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn mysql_dash_dash_without_a_space_is_an_operator() {
        let sql = "SELECT 1--1; SELECT 2 --\tgone;\nSELECT 3 # also gone;\n;";
        assert_eq!(
            bodies(sql, Dialect::MySql),
            vec!["SELECT 1--1", "SELECT 2 --\tgone;\nSELECT 3"]
        );
    }

    #[test]
    fn begin_atomic_body() {
        let sql = "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN 1 END; END; SELECT 2;";
        assert_eq!(bodies(sql, Dialect::Postgres).len(), 2);
    }

    #[test]
    fn unterminated_string_is_reported() {
        let p = split("SELECT 1; SELECT 'abc", Dialect::Postgres);
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].error.as_ref().unwrap().what, "unterminated string");
    }
}
