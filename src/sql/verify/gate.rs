//! Statement gatekeeping: before verify sends a statement, its tokens are
//! read against a small grammar of the forms that act outside the scratch
//! database — on the server (databases, roles, configuration, other
//! sessions), on the server's host (files, programs, libraries) or on the
//! network (dblink, foreign servers, subscriptions). Such a statement is not
//! sent; it becomes an MG901 finding at the offending token.
//!
//! The grammar reads statement heads where a statement can start: the
//! statement itself, and inside the bodies it carries (DO blocks, function,
//! procedure, trigger and event bodies, `EXECUTE '…'`, `PREPARE … FROM '…'`,
//! MySQL's `/*! … */` comments, which the server executes), plus every
//! function call anywhere. SQL built at run time (`EXECUTE 'ALTER ' || x`)
//! cannot be read in advance: that is what the unprivileged sandbox role
//! the replay runs as is for (see `sandbox`).
use super::gate_my;
use super::gate_pg;
#[path = "gate_calls.rs"]
mod calls;
use crate::sql::Dialect;
use crate::sql::classify::cursor::unquote;
use crate::sql::lexer::{Lexer, Tok, Token};
use crate::sql::ops::Op;
pub use calls::calls;

/// Bodies inside bodies inside bodies: deeper nesting is not read.
const MAX_DEPTH: usize = 4;
/// Tokens kept for reading statement structure; function calls are looked
/// for in every token however long the statement is.
const STRUCTURE_TOKENS: usize = 50_000;

/// PostgreSQL extensions created without asking: the ones PostgreSQL itself
/// marks trusted (a database owner may create them), and PostGIS and
/// pgvector, which add types and functions only.
pub const DEFAULT_EXTENSIONS: &[&str] = &[
    "btree_gin",
    "btree_gist",
    "citext",
    "cube",
    "dict_int",
    "fuzzystrmatch",
    "hstore",
    "intarray",
    "isn",
    "lo",
    "ltree",
    "pg_trgm",
    "pgcrypto",
    "plpgsql",
    "postgis",
    "postgis_raster",
    "postgis_topology",
    "seg",
    "tablefunc",
    "tcn",
    "tsm_system_rows",
    "tsm_system_time",
    "unaccent",
    "uuid-ossp",
    "vector",
];

/// What may run: the dialect, the scratch database's name (MySQL `USE` and
/// qualified names may name it), and the extensions allowed.
#[derive(Clone, Debug)]
pub struct Policy {
    pub dialect: Dialect,
    pub database: String,
    pub extensions: Vec<String>,
}

impl Policy {
    pub fn new(dialect: Dialect, database: &str, extra_extensions: &[String]) -> Policy {
        let mut extensions: Vec<String> =
            DEFAULT_EXTENSIONS.iter().map(|e| e.to_string()).collect();
        extensions.extend(extra_extensions.iter().map(|e| e.to_ascii_lowercase()));
        Policy {
            dialect,
            database: database.to_string(),
            extensions,
        }
    }
    pub fn extension_allowed(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e.eq_ignore_ascii_case(name))
    }
}

/// A statement that would act outside the scratch database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escape {
    /// Byte offset of the offending token in the statement text.
    pub at: usize,
    pub what: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Run,
    /// Not sent, not a finding: verify keeps its own session state.
    Skip(&'static str),
    /// Not sent; an MG901 finding.
    Withhold(Escape),
}

/// The tokens of one statement or body, with their source.
pub struct View<'a> {
    pub text: &'a str,
    pub toks: Vec<Token>,
    /// Offset of `text` within the statement (bodies are slices of it).
    pub base: usize,
}

impl<'a> View<'a> {
    pub fn new(text: &'a str, dialect: Dialect, base: usize) -> View<'a> {
        let mut lx = Lexer::new(text, dialect);
        let mut toks = Vec::new();
        while let Some(t) = lx.next_token() {
            if !t.is_trivia() || exec_comment(text, &t, dialect).is_some() {
                toks.push(t);
                if toks.len() >= STRUCTURE_TOKENS {
                    break;
                }
            }
        }
        View { text, toks, base }
    }
    pub fn raw(&self, i: usize) -> &'a str {
        self.toks.get(i).map_or("", |t| &self.text[t.start..t.end])
    }
    /// The bare word at `i`, lower-cased.
    pub fn word(&self, i: usize) -> Option<String> {
        let t = self.toks.get(i)?;
        (t.kind == Tok::Word).then(|| self.raw(i).to_ascii_lowercase())
    }
    pub fn is(&self, i: usize, kw: &str) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Tok::Word && self.raw(i).eq_ignore_ascii_case(kw))
    }
    /// The keywords follow one another from `i`.
    pub fn seq(&self, i: usize, kws: &[&str]) -> bool {
        kws.iter().enumerate().all(|(k, kw)| self.is(i + k, kw))
    }
    pub fn punct(&self, i: usize, p: &str) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Tok::Punct && self.raw(i) == p)
    }
    pub fn kind(&self, i: usize) -> Option<Tok> {
        self.toks.get(i).map(|t| t.kind)
    }
    /// An identifier at `i` (bare: lower-cased; quoted: as written).
    pub fn ident(&self, i: usize) -> Option<String> {
        match self.kind(i)? {
            Tok::Word => self.word(i),
            Tok::QuotedIdent => Some(unquote(self.raw(i))),
            _ => None,
        }
    }
    /// A string literal's content at `i`.
    pub fn string(&self, i: usize) -> Option<String> {
        match self.kind(i)? {
            Tok::Str => {
                let raw = self.raw(i);
                let raw = raw.strip_prefix(['e', 'E']).unwrap_or(raw);
                Some(unquote(raw))
            }
            _ => None,
        }
    }
    /// The statement offset of token `i` (the end of the text if past it).
    pub fn at(&self, i: usize) -> usize {
        self.base + self.toks.get(i).map_or(self.text.len(), |t| t.start)
    }
    /// Parenthesis depth before each token.
    pub fn depths(&self) -> Vec<i32> {
        let mut d = 0;
        let mut out = Vec::with_capacity(self.toks.len());
        for i in 0..self.toks.len() {
            if self.punct(i, ")") {
                d -= 1;
            }
            out.push(d);
            if self.punct(i, "(") {
                d += 1;
            }
        }
        out
    }
    /// The first token at or after `from` at parenthesis depth 0 that is
    /// one of the keywords.
    pub fn find_top(&self, from: usize, kws: &[&str]) -> Option<usize> {
        let depths = self.depths();
        (from..self.toks.len()).find(|&i| depths[i] == 0 && kws.iter().any(|k| self.is(i, k)))
    }
    pub fn escape(&self, i: usize, what: impl Into<String>) -> Escape {
        Escape {
            at: self.at(i),
            what: what.into(),
        }
    }
}

/// The code inside a MySQL/MariaDB executable comment (`/*! … */`,
/// `/*!50700 … */`, `/*M! … */`), which the server runs as if it were not
/// a comment: its byte range in `text`.
pub fn exec_comment(text: &str, t: &Token, dialect: Dialect) -> Option<(usize, usize)> {
    if !dialect.is_mysql() || t.kind != Tok::BlockComment {
        return None;
    }
    let raw = &text[t.start..t.end];
    let rest = raw
        .strip_prefix("/*!")
        .or_else(|| raw.strip_prefix("/*M!"))?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let start = t.end - rest.len() + digits;
    let end = if raw.ends_with("*/") && t.end - 2 >= start {
        t.end - 2
    } else {
        t.end
    };
    Some((start, end))
}

/// The judgement for one statement. `op` is the classifier's reading, used
/// for the names a MySQL statement acts on (`other_db.table`).
pub fn judge(text: &str, op: Option<&Op>, policy: &Policy) -> Verdict {
    let view = View::new(text, policy.dialect, 0);
    if let Some(skip) = skip(&view, policy.dialect) {
        return Verdict::Skip(skip);
    }
    let found = scan(&view, policy, 0)
        .or_else(|| calls(text, policy.dialect, 0, 0))
        .or_else(|| {
            (policy.dialect.is_mysql())
                .then(|| gate_my::names(op, policy, text))
                .flatten()
        });
    match found {
        Some(e) => Verdict::Withhold(e),
        None => Verdict::Run,
    }
}

/// Session statements verify does not send: transaction control (each
/// statement runs in verify's own transaction) and RESET of the timeouts
/// verify holds (its SET counterpart is skipped by the replay).
fn skip(v: &View, dialect: Dialect) -> Option<&'static str> {
    if dialect.is_mysql() {
        return None;
    }
    let w = v.word(0)?;
    let tx = match w.as_str() {
        "begin" | "start" | "savepoint" | "release" | "abort" | "end" => true,
        "commit" | "rollback" => !v.is(1, "prepared"),
        _ => false,
    };
    if tx {
        return Some("transaction control: verify runs each statement in its own transaction");
    }
    if w == "reset"
        && v.word(1)
            .is_some_and(|n| gate_pg::TIMEOUTS.contains(&n.as_str()))
    {
        return Some("verify keeps its own timeouts");
    }
    if w == "copy" {
        let dir = v.find_top(1, &["from", "to"])?;
        if v.is(dir + 1, "stdin") || v.is(dir + 1, "stdout") {
            return Some(
                "COPY … STDIN/STDOUT needs psql's data stream, which a migration file does not carry to the server",
            );
        }
    }
    None
}

/// Statement heads in this view and in the bodies it carries.
pub fn scan(v: &View, policy: &Policy, depth: usize) -> Option<Escape> {
    if depth > MAX_DEPTH {
        return None;
    }
    let body = depth > 0;
    let starts = match policy.dialect {
        Dialect::Postgres => gate_pg::starts(v, body),
        _ => {
            if let Some(e) = gate_my::anywhere(v) {
                return Some(e);
            }
            gate_my::starts(v, body)
        }
    };
    for i in starts {
        let head = match policy.dialect {
            Dialect::Postgres => gate_pg::head(v, i, policy),
            _ => gate_my::head(v, i, policy),
        };
        if head.is_some() {
            return head;
        }
    }
    for (start, end) in bodies(v, policy.dialect) {
        let body = View::new(&v.text[start..end], policy.dialect, v.base + start);
        if let Some(e) = scan(&body, policy, depth + 1) {
            return Some(e);
        }
    }
    None
}

/// The byte ranges (in `v.text`) of code carried inside this statement.
fn bodies(v: &View, dialect: Dialect) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, t) in v.toks.iter().enumerate() {
        if let Some(r) = exec_comment(v.text, t, dialect) {
            out.push(r);
        }
        let carries = match dialect {
            Dialect::Postgres => gate_pg::carries_code(v, i),
            _ => gate_my::carries_code(v, i),
        };
        if carries && let Some(r) = literal_inner(v.text, t) {
            out.push(r);
        }
    }
    out
}

/// The inside of a string or dollar-quoted literal.
fn literal_inner(text: &str, t: &Token) -> Option<(usize, usize)> {
    let raw = &text[t.start..t.end];
    match t.kind {
        Tok::DollarStr => {
            let tag = raw[1..].find('$')? + 2;
            let end = if t.unterminated { t.end } else { t.end - tag };
            (t.start + tag <= end).then_some((t.start + tag, end))
        }
        Tok::Str => {
            let open = raw.find('\'').or_else(|| raw.find('"'))? + 1;
            let end = if t.unterminated { t.end } else { t.end - 1 };
            (t.start + open <= end).then_some((t.start + open, end))
        }
        _ => None,
    }
}

/// `CREATE EXTENSION …` (PostgreSQL), by its head.
pub fn creates_extension(text: &str) -> bool {
    let v = View::new(text, Dialect::Postgres, 0);
    v.seq(0, &["create", "extension"])
}
