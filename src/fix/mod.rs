//! Fixes as data: for a report whose rule says `fix: safe|unsafe` in its
//! data file, the byte edits (and new files) that remove what it flags.
//! The engine attaches them to findings; `platcheck fix` and the language
//! server's code actions apply them (`apply`). Every fix here edits only
//! the bytes it must: comments, quoting, indentation and line endings of
//! the rest of the file stay as the user wrote them.
pub mod apply;
mod block;
mod contracts;
mod diesel;
mod index_name;
mod mysql;
mod next;
mod opt_out;
mod place;
mod popx;
pub mod proof;
mod sqitch;
mod sqitch_revert;
mod sql;
mod sql_steps;
mod timeouts;
mod undo;
mod versions;

use crate::catalog::{FixSafety, RuleId};
use crate::emit::Report;
use crate::finding::{Edit, Fix};
use crate::registry::RuleCtx;
use crate::sql::analysis::{FileAnalysis, Stmt};
use std::path::Path;

/// The fix for one report, when its rule has fixes and this finding has one.
pub fn compute(ctx: &RuleCtx, r: &Report) -> Option<Fix> {
    if r.rule.meta().fix == FixSafety::None || r.file >= ctx.ws.files.len() {
        return None;
    }
    match r.rule {
        RuleId::PC003 | RuleId::PC004 | RuleId::PC008 => contracts::compute(ctx, r),
        RuleId::MG100 | RuleId::MG103 => with_stmt(ctx, r, mysql::compute),
        RuleId::MG001 | RuleId::MG002 | RuleId::MG030 | RuleId::MG031 => {
            with_stmt(ctx, r, sql::compute)
        }
        RuleId::MG013 | RuleId::MG015 | RuleId::MG017 => with_stmt(ctx, r, sql_steps::compute),
        // A contract rule with `fix: unsafe` in its data file: the block
        // its finding says is missing, from the rule's example.
        _ => block::missing_block(ctx, r),
    }
}

type StmtFix = fn(&Site, RuleId) -> Option<Fix>;

/// What a SQL fix looks at: the script, the flagged statement and the file.
pub(crate) struct Site<'a> {
    pub ctx: &'a RuleCtx<'a>,
    pub fa: &'a FileAnalysis,
    pub st: &'a Stmt,
    pub text: &'a str,
    pub path: &'a Path,
}

fn with_stmt(ctx: &RuleCtx, r: &Report, f: StmtFix) -> Option<Fix> {
    let analysis = ctx.sql();
    // A finding in a section or changeset of a file, or a down script, is
    // left to a person: its edits would have to respect the other parts.
    // A Liquibase changelog is one script per changeset: the one holding
    // the statement.
    let (fa, st) = analysis
        .files
        .iter()
        .filter(|fa| fa.file == r.file && fa.window.is_none() && fa.note().is_none())
        .find_map(|fa| Some((fa, stmt_at(&fa.stmts, r.span.start)?)))?;
    let src = &ctx.ws.files[r.file];
    // A popx file without a dialect in its name runs on every database the
    // project supports (SQLite, MySQL, CockroachDB): a PostgreSQL rewrite
    // there breaks the others, so a person writes a `.postgres.` file.
    if fa.tool == Some(crate::sql::history::Tool::Popx) && !popx::popx_has_dialect(&src.path) {
        return None;
    }
    let site = Site {
        ctx,
        fa,
        st,
        text: &src.text,
        path: &src.path,
    };
    f(&site, r.rule)
}

/// The statement starting at `at`: a script's statements are in file
/// order, so this is a binary search (a scan per finding was quadratic:
/// 12.7% of a 20k-statement run).
fn stmt_at(stmts: &[Stmt], at: usize) -> Option<&Stmt> {
    let i = stmts.partition_point(|s| s.span.start < at);
    stmts.get(i).filter(|s| s.span.start == at)
}

impl Site<'_> {
    pub fn stmt_text(&self) -> &str {
        &self.text[self.st.span.start..self.st.span.end]
    }
    pub fn edit(&self, start: usize, end: usize, text: impl Into<String>) -> Edit {
        Edit {
            path: self.path.to_path_buf(),
            start,
            end,
            text: text.into(),
            create: false,
        }
    }
    pub fn insert(&self, at: usize, text: impl Into<String>) -> Edit {
        self.edit(at, at, text)
    }
}

/// The file's line ending: CRLF when its first line ends so.
pub(crate) fn eol(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The offset of the start of the line holding `at`.
pub(crate) fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The indentation of the line holding `at` (its leading blanks).
pub(crate) fn indent_at(text: &str, at: usize) -> &str {
    let start = line_start(text, at);
    let line = &text[start..];
    let n = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..n.min(at - start)]
}

/// An identifier as PostgreSQL reads it: bare when it is lower-case and
/// plain, else double-quoted.
pub(crate) fn ident(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

pub(crate) fn fix(title: impl Into<String>, safety: FixSafety, edits: Vec<Edit>) -> Fix {
    Fix {
        title: title.into(),
        safety,
        edits,
    }
}
