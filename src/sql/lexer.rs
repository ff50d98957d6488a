//! A small SQL lexer shared by the statement splitter and the token
//! classifier. It knows exactly what decides where a statement ends —
//! strings, quoted identifiers, dollar quotes, comments — and treats
//! migration-template placeholders (`${var}`, `{{ … }}`, `:var`) as one
//! opaque token, so templated files still split and classify.
//!
//! Every step advances at least one byte, so no input can make it loop.
use super::Dialect;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A bare word: keyword or unquoted identifier.
    Word,
    /// `"ident"` (PostgreSQL) or `` `ident` `` (MySQL).
    QuotedIdent,
    /// `'text'`, `E'text'`, MySQL `"text"`.
    Str,
    /// `$tag$ … $tag$`.
    DollarStr,
    Number,
    /// `${var}`, `{{ var }}`, `:var`: stands for an identifier or a literal.
    Placeholder,
    /// `$1`, `?`.
    Param,
    Semicolon,
    /// Any other symbol; multi-character operators are split per character
    /// except `::`.
    Punct,
    LineComment,
    BlockComment,
    /// A template tag that is not SQL: `{% … %}` (Jinja/dbt control) or
    /// `{# … #}` (a template comment). The server never sees it, so it is
    /// trivia; the SQL around it is still split and analysed.
    Template,
    Space,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
    /// Set when a string, quoted identifier, dollar quote or block comment
    /// runs to the end of the input.
    pub unterminated: bool,
}

impl Token {
    pub fn is_trivia(&self) -> bool {
        matches!(
            self.kind,
            Tok::Space | Tok::LineComment | Tok::BlockComment | Tok::Template
        )
    }
}

pub struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    pub pos: usize,
    dialect: Dialect,
    /// Closers (`}`, `}}`, `%}`, `#}`) known to be absent after an offset:
    /// a file full of unclosed `{%` is scanned once, not once per `{%`.
    absent: Vec<(&'static [u8], usize)>,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}
/// `ident_char` per byte: words are most of a script's bytes, and a table
/// is one load where the tests were six comparisons.
static IDENT_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 || c == b'$';
        i += 1;
    }
    t
};

fn ident_char(c: u8) -> bool {
    IDENT_CHAR[usize::from(c)]
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> Self {
        Lexer {
            src,
            b: src.as_bytes(),
            pos: 0,
            dialect,
            absent: Vec::new(),
        }
    }

    pub fn at(src: &'a str, dialect: Dialect, pos: usize) -> Self {
        let mut l = Lexer::new(src, dialect);
        l.pos = pos;
        l
    }

    fn peek(&self, off: usize) -> u8 {
        self.b.get(self.pos + off).copied().unwrap_or(0)
    }

    /// Moves to the next char boundary at or after `to` (never backwards).
    fn advance_to(&mut self, to: usize) {
        let mut to = to.min(self.b.len()).max(self.pos + 1);
        while to < self.b.len() && !self.src.is_char_boundary(to) {
            to += 1;
        }
        self.pos = to.min(self.b.len());
    }

    pub fn next_token(&mut self) -> Option<Token> {
        if self.pos >= self.b.len() {
            return None;
        }
        let start = self.pos;
        let c = self.peek(0);
        let my = self.dialect.is_mysql();
        let (kind, unterminated) = match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => {
                let n = self.b[start..]
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace() || **c == 0x0b)
                    .count();
                self.advance_to(start + n);
                (Tok::Space, false)
            }
            // MySQL/MariaDB read `--` as a comment only before a space or a
            // control character (end of input included): `1--1` is `1 - -1`.
            b'-' if self.peek(1) == b'-' && (!my || matches!(self.peek(2), 0..=b' ' | 0x7f)) => {
                self.line_comment()
            }
            b'#' if my => self.line_comment(),
            b'/' if self.peek(1) == b'*' => self.block_comment(),
            b'\'' => self.quoted(b'\'', my, Tok::Str),
            b'"' if my => self.quoted(b'"', true, Tok::Str),
            b'"' => self.quoted(b'"', false, Tok::QuotedIdent),
            b'`' if my => self.quoted(b'`', false, Tok::QuotedIdent),
            b'e' | b'E' if !my && self.peek(1) == b'\'' => {
                self.pos += 1;
                self.quoted(b'\'', true, Tok::Str)
            }
            b'$' if self.peek(1) == b'{' => self.until_close(b"}", Tok::Placeholder),
            b'{' if self.peek(1) == b'{' => self.until_close(b"}}", Tok::Placeholder),
            b'{' if self.peek(1) == b'%' => self.until_close(b"%}", Tok::Template),
            b'{' if self.peek(1) == b'#' => self.until_close(b"#}", Tok::Template),
            b'$' if !my => self.dollar(),
            b':' if self.peek(1) == b':' => {
                self.advance_to(start + 2);
                (Tok::Punct, false)
            }
            b':' if ident_start(self.peek(1)) && (start == 0 || !ident_char(self.b[start - 1])) => {
                let n = 1 + self.b[start + 1..]
                    .iter()
                    .take_while(|c| ident_char(**c))
                    .count();
                self.advance_to(start + n);
                (Tok::Placeholder, false)
            }
            b';' => {
                self.advance_to(start + 1);
                (Tok::Semicolon, false)
            }
            b'?' => {
                self.advance_to(start + 1);
                (Tok::Param, false)
            }
            c if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) => {
                let n = self.b[start..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'.' || **c == b'_')
                    .count();
                self.advance_to(start + n);
                (Tok::Number, false)
            }
            c if ident_start(c) => {
                let n = self.b[start..]
                    .iter()
                    .take_while(|c| ident_char(**c))
                    .count();
                self.advance_to(start + n);
                (Tok::Word, false)
            }
            _ => {
                self.advance_to(start + 1);
                (Tok::Punct, false)
            }
        };
        Some(Token {
            kind,
            start,
            end: self.pos,
            unterminated,
        })
    }

    /// Ends where the server ends it: PostgreSQL's scanner stops at CR or
    /// LF, MySQL's and MariaDB's at LF only. Reading a lone CR differently
    /// from the server would hide a `;` (and the statement after it) in
    /// what platcheck takes for a comment.
    fn line_comment(&mut self) -> (Tok, bool) {
        let rest = &self.b[self.pos..];
        let my = self.dialect.is_mysql();
        let n = rest
            .iter()
            .position(|c| *c == b'\n' || (*c == b'\r' && !my))
            .unwrap_or(rest.len());
        self.advance_to(self.pos + n);
        (Tok::LineComment, false)
    }

    /// PostgreSQL block comments nest; MySQL ones do not.
    fn block_comment(&mut self) -> (Tok, bool) {
        let nest = !self.dialect.is_mysql();
        let mut depth = 0usize;
        let mut i = self.pos;
        while i + 1 < self.b.len() {
            if self.b[i] == b'/' && self.b[i + 1] == b'*' && (nest || depth == 0) {
                depth += 1;
                i += 2;
            } else if self.b[i] == b'*' && self.b[i + 1] == b'/' {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    self.advance_to(i);
                    return (Tok::BlockComment, false);
                }
            } else {
                i += 1;
            }
        }
        self.advance_to(self.b.len());
        (Tok::BlockComment, true)
    }

    /// A quoted run closed by `q`; a doubled `q` is an escaped quote, and
    /// with `backslash` a `\` escapes the next byte.
    fn quoted(&mut self, q: u8, backslash: bool, kind: Tok) -> (Tok, bool) {
        let mut i = self.pos + 1;
        while i < self.b.len() {
            let c = self.b[i];
            if backslash && c == b'\\' {
                i += 2;
            } else if c == q {
                if self.b.get(i + 1) == Some(&q) {
                    i += 2;
                } else {
                    self.advance_to(i + 1);
                    return (kind, false);
                }
            } else {
                i += 1;
            }
        }
        self.advance_to(self.b.len());
        (kind, true)
    }

    fn until_close(&mut self, close: &'static [u8], kind: Tok) -> (Tok, bool) {
        let from = self.pos + 2;
        let known_absent = self.absent.iter().any(|(c, at)| *c == close && *at <= from);
        let found = if known_absent {
            None
        } else {
            find(&self.b[from.min(self.b.len())..], close)
        };
        if found.is_none() && !known_absent {
            self.absent.push((close, from));
        }
        match found {
            Some(i) => {
                self.advance_to(from + i + close.len());
                (kind, false)
            }
            // An unclosed `${` is just punctuation: it is not a template.
            None => {
                self.advance_to(self.pos + 1);
                (Tok::Punct, false)
            }
        }
    }

    /// `$tag$ … $tag$` or `$$ … $$`; `$1` is a parameter; a lone `$` is punctuation.
    fn dollar(&mut self) -> (Tok, bool) {
        let start = self.pos;
        if self.peek(1).is_ascii_digit() {
            let n = 1 + self.b[start + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            self.advance_to(start + n);
            return (Tok::Param, false);
        }
        let tag_len = self.b[start + 1..]
            .iter()
            .take_while(|c| ident_char(**c) && **c != b'$')
            .count();
        if self.b.get(start + 1 + tag_len) != Some(&b'$') {
            self.advance_to(start + 1);
            return (Tok::Punct, false);
        }
        let tag = &self.b[start..start + tag_len + 2];
        let body = start + tag.len();
        match find(&self.b[body..], tag) {
            Some(i) => {
                self.advance_to(body + i + tag.len());
                (Tok::DollarStr, false)
            }
            None => {
                self.advance_to(self.b.len());
                (Tok::DollarStr, true)
            }
        }
    }
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The significant tokens of `text` (no whitespace or comments), at most
/// `limit` of them: the classifier needs the head of a statement, and a cap
/// keeps a 20 MB `INSERT … VALUES` from costing memory per token.
pub fn tokens(text: &str, dialect: Dialect, limit: usize) -> Vec<Token> {
    let mut lx = Lexer::new(text, dialect);
    let mut out = Vec::new();
    while let Some(t) = lx.next_token() {
        if !t.is_trivia() {
            out.push(t);
            if out.len() >= limit {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ident_table_is_the_ident_test() {
        for c in 0..=255u8 {
            let want = ident_start(c) || c.is_ascii_digit() || c == b'$';
            assert_eq!(IDENT_CHAR[usize::from(c)], want, "{c:#x}");
        }
    }

    use super::*;

    fn kinds(s: &str, d: Dialect) -> Vec<(Tok, &str)> {
        tokens(s, d, usize::MAX)
            .into_iter()
            .map(|t| (t.kind, &s[t.start..t.end]))
            .collect()
    }

    #[test]
    fn dollar_quotes_and_params() {
        let k = kinds("DO $x$ a; $$ b $x$ ; $1 $$;$$", Dialect::Postgres);
        assert_eq!(k[1], (Tok::DollarStr, "$x$ a; $$ b $x$"));
        assert_eq!(k[3], (Tok::Param, "$1"));
        assert_eq!(k[4], (Tok::DollarStr, "$$;$$"));
    }

    #[test]
    fn template_tags_are_trivia() {
        let k = kinds(
            "{% if x %}ALTER TABLE t{# a; #} DROP c;{% endif %}",
            Dialect::Postgres,
        );
        let text: Vec<&str> = k.iter().map(|t| t.1).collect();
        assert_eq!(text, ["ALTER", "TABLE", "t", "DROP", "c", ";"]);
        // An unclosed tag is punctuation, as an unclosed `${` is.
        assert_eq!(kinds("{% x", Dialect::Postgres)[0], (Tok::Punct, "{"));
    }

    #[test]
    fn placeholders_and_casts() {
        let k = kinds("a::int :name ${x} {{ y }}", Dialect::Postgres);
        let p: Vec<_> = k.iter().filter(|t| t.0 == Tok::Placeholder).collect();
        assert_eq!(p.len(), 3);
        assert_eq!(k[1], (Tok::Punct, "::"));
    }

    #[test]
    fn mysql_strings_and_comments() {
        let k = kinds("SELECT \"a;\\\"b\" # c;\n, 'x\\'y' `q;`", Dialect::MySql);
        assert_eq!(k[1].0, Tok::Str);
        assert_eq!(k[3], (Tok::Str, "'x\\'y'"));
        assert_eq!(k[4].0, Tok::QuotedIdent);
    }

    #[test]
    fn postgres_line_comment_ends_at_cr_or_lf() {
        let k = kinds("SELECT 1 -- x\r; COMMIT; -- y\nSELECT 2", Dialect::Postgres);
        let text: Vec<&str> = k.iter().map(|t| t.1).collect();
        assert_eq!(text, ["SELECT", "1", ";", "COMMIT", ";", "SELECT", "2"]);
    }

    #[test]
    fn mysql_line_comments_end_at_lf_only() {
        for d in [Dialect::MySql, Dialect::MariaDb] {
            let k = kinds("SELECT 1 -- x\r; COMMIT\n; # z\r;\nSELECT 2", d);
            let text: Vec<&str> = k.iter().map(|t| t.1).collect();
            assert_eq!(text, ["SELECT", "1", ";", "SELECT", "2"], "{d:?}");
        }
    }

    #[test]
    fn mysql_double_dash_needs_a_space_or_control_character() {
        let k = kinds("SELECT 1--1", Dialect::MariaDb);
        assert_eq!(k.len(), 5, "{k:?}");
        for after in [" ", "\t", "\x0b", "\x0c", "\x01", "\x7f"] {
            let sql = format!("SELECT 1 --{after}x; DROP TABLE t");
            let k = kinds(&sql, Dialect::MySql);
            assert_eq!(k.len(), 2, "--{after:?} starts a comment: {k:?}");
        }
        let k = kinds("SELECT 1 --x; DROP TABLE t", Dialect::MySql);
        assert!(k.iter().any(|t| t.1 == "DROP"), "{k:?}");
        // At the end of the input `--` is a comment too.
        assert_eq!(kinds("SELECT 1 --", Dialect::MySql).len(), 2);
    }

    #[test]
    fn nested_comment_and_unterminated() {
        let mut lx = Lexer::new("/* a /* b */ c */x", Dialect::Postgres);
        let t = lx.next_token().unwrap();
        assert_eq!(t.end, 17);
        let t = Lexer::new("'abc", Dialect::Postgres).next_token().unwrap();
        assert!(t.unterminated);
    }
}
