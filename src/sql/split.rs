//! Splits a migration file into statements at top-level terminators (`;`, or
//! the MySQL client's `DELIMITER`), never inside strings, quoted
//! identifiers, dollar quotes, comments or a `BEGIN ATOMIC … END` body.
//!
//! The pieces tile the input exactly: every byte belongs to exactly one
//! piece, so nothing is lost or counted twice (see the property tests).
use super::Dialect;
use super::lexer::{Lexer, Tok, Token};
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
    let mut s = Splitter::new(text, dialect);
    std::iter::from_fn(|| s.next_piece(None)).collect()
}

/// Where a statement's significant tokens go while it is split, and how
/// many are kept (`analysis::TOKEN_LIMIT`).
pub struct Tokens<'v> {
    pub out: &'v mut Vec<Token>,
    pub limit: usize,
}

/// The splitter, one piece at a time: the analysis reads each statement's
/// tokens as the splitter lexes them (one lexing pass per file) and keeps
/// only the statement being read, not the whole file's tokens.
pub struct Splitter<'a> {
    text: &'a str,
    dialect: Dialect,
    lx: Lexer<'a>,
    piece_start: usize,
    body: Option<Span>,
    error: Option<SplitError>,
    delimiter: Option<String>,
    st: Shape<'a>,
    /// The COPY data piece that follows the statement just returned.
    queued: Option<Piece>,
    ended: bool,
}

impl<'a> Splitter<'a> {
    pub fn new(text: &'a str, dialect: Dialect) -> Self {
        Splitter {
            text,
            dialect,
            lx: Lexer::new(text, dialect),
            piece_start: 0,
            body: None,
            error: None,
            delimiter: None,
            st: Shape::default(),
            queued: None,
            ended: false,
        }
    }

    /// A custom `DELIMITER` is in force: a token can then be cut short
    /// where the delimiter starts inside it, so a statement's tokens can
    /// differ from those of its text lexed alone.
    pub fn custom_delimiter(&self) -> bool {
        self.delimiter.is_some()
    }

    /// The next piece; with `toks`, its statement's significant tokens
    /// (offsets in the whole text, at most `limit`) replace their contents.
    pub fn next_piece(&mut self, mut toks: Option<Tokens>) -> Option<Piece> {
        if let Some(p) = self.queued.take() {
            if let Some(t) = toks.as_mut() {
                t.out.clear();
            }
            return Some(p);
        }
        if self.ended {
            return None;
        }
        if let Some(t) = toks.as_mut() {
            t.out.clear();
        }
        let text = self.text;
        let dialect = self.dialect;
        loop {
            let at = self.lx.pos;
            if at >= text.len() {
                break;
            }
            // The MySQL client command `DELIMITER x` at the start of a statement.
            if dialect.is_mysql()
                && self.body.is_none()
                && line_start(text, at)
                && starts_with_ci(&text[at..], "delimiter ")
            {
                let end = line_end(text, at);
                let d = text[at + 10..end].trim();
                self.delimiter = (!d.is_empty() && d != ";").then(|| d.to_string());
                self.lx.pos = end;
                let p = Piece {
                    span: Span::new(self.piece_start, end),
                    body: Span::empty(end),
                    error: None,
                };
                self.piece_start = end;
                return Some(p);
            }
            if let Some(d) = &self.delimiter
                && text[at..].starts_with(d.as_str())
            {
                let end = at + d.len();
                self.lx.pos = end;
                self.st = Shape::default();
                return Some(self.finish(end));
            }
            let Some(mut t) = self.lx.next_token() else {
                break;
            };
            // The client looks for a custom delimiter anywhere outside quotes and
            // comments, also glued to a word: `END$$` ends the body when the
            // delimiter is `$$`, although `$` is an identifier character.
            if let Some(d) = &self.delimiter
                && matches!(t.kind, Tok::Word | Tok::Number | Tok::Punct | Tok::Param)
                && let Some(k) = text[t.start..t.end].find(d.as_str()).filter(|k| *k > 0)
            {
                t.end = t.start + k;
                self.lx.pos = t.end;
            }
            if t.unterminated && self.error.is_none() {
                let what = match t.kind {
                    Tok::Str => "unterminated string",
                    Tok::QuotedIdent => "unterminated quoted identifier",
                    Tok::DollarStr => "unterminated dollar-quoted string",
                    _ => "unterminated comment",
                };
                self.error = Some(SplitError { at: t.start, what });
                // A comment that swallows the rest of the file is a statement of
                // its own: a trivia-only piece would vanish with what it hides.
                self.body = Some(
                    self.body
                        .map_or(Span::new(t.start, t.end), |b| Span::new(b.start, t.end)),
                );
            }
            if t.is_trivia() {
                continue;
            }
            if t.kind == Tok::Semicolon && self.delimiter.is_none() && self.st.atomic_depth == 0 {
                let copy = self.st.copy_stdin.then(|| copy_data_end(text, t.end));
                if let Some(None) = copy
                    && self.error.is_none()
                {
                    self.error = Some(SplitError {
                        at: self.body.map_or(t.start, |b| b.start),
                        what: "COPY FROM STDIN data without a closing `\\.` line",
                    });
                }
                let p = self.finish(t.end);
                self.st = Shape::default();
                // The rows after `COPY … FROM stdin;` are data up to `\.`: a quote
                // in them must not open a string that hides the next statements.
                if let Some(data) = copy {
                    let end = data.unwrap_or(text.len());
                    self.queued = Some(Piece {
                        span: Span::new(self.piece_start, end),
                        body: Span::empty(end),
                        error: None,
                    });
                    self.piece_start = end;
                    self.lx.pos = end;
                }
                return Some(p);
            }
            self.body = Some(match self.body {
                Some(b) => Span::new(b.start, t.end),
                None => Span::new(t.start, t.end),
            });
            if let Some(k) = toks.as_mut()
                && k.out.len() < k.limit
            {
                k.out.push(t);
            }
            self.st.see(&t, text, dialect);
        }
        self.ended = true;
        if self.st.atomic_depth > 0 && self.error.is_none() {
            self.error = Some(SplitError {
                at: self.st.atomic_at,
                what: "unterminated BEGIN ATOMIC body (no matching END)",
            });
        }
        if self.piece_start < text.len() || self.error.is_some() {
            return Some(self.finish(text.len()));
        }
        None
    }

    fn finish(&mut self, end: usize) -> Piece {
        let p = Piece {
            span: Span::new(self.piece_start, end),
            body: self.body.take().unwrap_or(Span::empty(end)),
            error: self.error.take(),
        };
        self.piece_start = end;
        p
    }
}

/// What the splitter tracks of the statement being read.
#[derive(Default)]
struct Shape<'a> {
    words: usize,
    first_word: &'a str,
    /// The previous significant token, when it was a word.
    prev_word: &'a str,
    prev_start: usize,
    /// `CREATE [OR REPLACE] FUNCTION|PROCEDURE`: only routines have bodies.
    routine: bool,
    atomic_depth: usize,
    /// Where the outermost `BEGIN ATOMIC` opened.
    atomic_at: usize,
    copy_stdin: bool,
}

impl<'a> Shape<'a> {
    fn see(&mut self, t: &super::lexer::Token, text: &'a str, dialect: Dialect) {
        if t.kind != Tok::Word {
            self.prev_word = "";
            return;
        }
        let w = &text[t.start..t.end];
        self.words += 1;
        if self.words == 1 {
            self.first_word = w;
        }
        let create = self.first_word.eq_ignore_ascii_case("create");
        if create
            && self.words <= 4
            && (w.eq_ignore_ascii_case("function") || w.eq_ignore_ascii_case("procedure"))
        {
            self.routine = true;
        }
        // SQL-standard function bodies (PostgreSQL 14+) contain `;`. The two
        // words must be adjacent: `CREATE INDEX i ON t (begin, atomic)` names
        // columns.
        if self.routine && !dialect.is_mysql() {
            let opens_atomic =
                w.eq_ignore_ascii_case("atomic") && self.prev_word.eq_ignore_ascii_case("begin");
            let opens_case = w.eq_ignore_ascii_case("case") && self.atomic_depth > 0;
            if opens_atomic || opens_case {
                if self.atomic_depth == 0 {
                    self.atomic_at = self.prev_start;
                }
                self.atomic_depth += 1;
            } else if w.eq_ignore_ascii_case("end") && self.atomic_depth > 0 {
                self.atomic_depth -= 1;
            }
        }
        if self.first_word.eq_ignore_ascii_case("copy")
            && self.prev_word.eq_ignore_ascii_case("from")
            && w.eq_ignore_ascii_case("stdin")
            && !dialect.is_mysql()
        {
            self.copy_stdin = true;
        }
        self.prev_word = w;
        self.prev_start = t.start;
    }
}

/// The end of `COPY … FROM stdin` data that starts on the line after
/// `after`: just past the line that is exactly `\.` (psql's end-of-data
/// marker). `None` when no such line follows.
fn copy_data_end(text: &str, after: usize) -> Option<usize> {
    let mut at = line_end(text, after);
    if at >= text.len() {
        return None;
    }
    while at < text.len() {
        let end = line_end(text, at);
        if text[at..end].trim_end_matches(['\n', '\r']) == "\\." {
            return Some(end);
        }
        at = end;
    }
    None
}

fn line_start(text: &str, at: usize) -> bool {
    text[..at]
        .bytes()
        .rev()
        .take_while(|c| *c != b'\n' && *c != b'\r')
        .all(|c| c == b' ' || c == b'\t')
}

/// Just past the line ending (LF, CRLF or a lone CR) of the line holding `at`.
fn line_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    match b[at..].iter().position(|c| *c == b'\n' || *c == b'\r') {
        Some(i) if b[at + i] == b'\r' && b.get(at + i + 1) == Some(&b'\n') => at + i + 2,
        Some(i) => at + i + 1,
        None => text.len(),
    }
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

    fn errors(text: &str) -> Vec<(usize, &'static str)> {
        split(text, Dialect::Postgres)
            .into_iter()
            .filter_map(|p| p.error.map(|e| (e.at, e.what)))
            .collect()
    }

    #[test]
    fn unclosed_states_are_statements_with_an_error_where_they_open() {
        for (sql, at, what) in [
            (
                "SELECT 1;\n/* oops\nALTER TABLE t;",
                10,
                "unterminated comment",
            ),
            (
                "SELECT 1;\n/* a /* b */ ALTER TABLE t;",
                10,
                "unterminated comment",
            ),
            (
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1;\nALTER TABLE t;",
                45,
                "unterminated BEGIN ATOMIC body (no matching END)",
            ),
            (
                "COPY t FROM stdin;\nit's\nALTER TABLE t;",
                0,
                "COPY FROM STDIN data without a closing `\\.` line",
            ),
        ] {
            assert_eq!(errors(sql), vec![(at, what)], "{sql}");
        }
    }

    #[test]
    fn begin_and_atomic_as_column_names_do_not_open_a_body() {
        let sql = "CREATE INDEX i ON t (begin, atomic);\nALTER TABLE t ADD c int;";
        assert_eq!(bodies(sql, Dialect::Postgres).len(), 2);
        assert!(errors(sql).is_empty());
    }

    #[test]
    fn copy_data_is_skipped_to_its_end_marker() {
        let sql = "COPY t (a) FROM stdin;\nit's\t'\n\\.\r\nALTER TABLE t ADD c int;";
        assert_eq!(
            bodies(sql, Dialect::Postgres),
            vec!["COPY t (a) FROM stdin", "ALTER TABLE t ADD c int"]
        );
    }

    #[test]
    fn template_tags_do_not_hide_statements() {
        let sql = "{% if x %}\nALTER TABLE t ADD c int;\n{% endif %}\n{# note; #}SELECT 1;";
        assert_eq!(
            bodies(sql, Dialect::Postgres),
            vec!["ALTER TABLE t ADD c int", "SELECT 1"]
        );
    }
}
