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
mod tests;
