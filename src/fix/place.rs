//! Work that must not share the flagged statement's transaction, placed in
//! the same file where the tool runs the file in more than one: a new
//! Liquibase changeset after the flagged one, or the lines after the
//! `COMMIT` of a script that says its own `BEGIN`/`COMMIT` (sqitch, or any
//! script the tool does not wrap).
use super::{Site, eol};
use crate::finding::Edit;
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::sync::LazyLock;

static CHANGESET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?im)^[ \t]*--[ \t]*changeset[ \t]+(\S+)[^\r\n]*").unwrap());

/// The `--changeset author:id …` line the flagged statement belongs to:
/// (start of the line, end of its text before the line ending, `author:id`).
fn header(site: &Site) -> Option<(usize, usize, String)> {
    let m = CHANGESET
        .captures_iter(site.text)
        .take_while(|c| c.get(0).is_some_and(|m| m.start() < site.st.span.start))
        .last()?;
    let all = m.get(0)?;
    Some((all.start(), all.end(), m[1].to_string()))
}

/// Where the flagged statement's changeset ends: the next changeset's line,
/// else the end of the file.
fn changeset_end(site: &Site) -> usize {
    CHANGESET
        .find_iter(site.text)
        .map(|m| m.start())
        .find(|&s| s > site.st.span.start)
        .unwrap_or(site.text.len())
}

/// Liquibase's opt-out: `runInTransaction:false` on the changeset's line.
pub fn liquibase_opt_out(site: &Site) -> Option<Vec<Edit>> {
    let (start, end, _) = header(site)?;
    if site.text[start..end]
        .to_ascii_lowercase()
        .contains("runintransaction")
    {
        return None;
    }
    Some(vec![site.insert(end, " runInTransaction:false")])
}

/// A changeset right after the flagged one holding `body` (the statements
/// with the script's timeouts): `author:id-desc`, outside a transaction
/// when `no_tx`.
pub fn liquibase_following(site: &Site, body: &str, no_tx: bool, desc: &str) -> Option<Edit> {
    let (_, _, author_id) = header(site)?;
    let nl = eol(site.text);
    let at = changeset_end(site);
    let attr = if no_tx { " runInTransaction:false" } else { "" };
    let mut text = String::new();
    if !site.text[..at].ends_with('\n') {
        text.push_str(nl);
    }
    if !site.text[..at].ends_with(&format!("{nl}{nl}")) {
        text.push_str(nl);
    }
    text.push_str(&format!("--changeset {author_id}-{desc}{attr}{nl}{body}"));
    if at < site.text.len() {
        text.push_str(nl);
    }
    Some(site.insert(at, text))
}

/// The script runs as written and the statement is in its own explicit
/// transaction: the offset just after the line of the `COMMIT` that ends
/// it, where statements run on their own.
pub fn after_commit(site: &Site) -> Option<usize> {
    // golang-migrate sends the file as one query: after COMMIT the rest is
    // an implicit transaction again.
    if matches!(
        site.fa.tool,
        Some(Tool::GolangMigrate) | Some(Tool::Liquibase)
    ) {
        return None;
    }
    if site.st.tx.is_none_or(|t| t == 0) || site.fa.stmts.iter().any(|s| s.tx == Some(0)) {
        return None;
    }
    let commit = site
        .fa
        .stmts
        .iter()
        .filter(|s| s.index > site.st.index)
        .find(|s| s.op.as_ref().is_some_and(Op::is_transaction_control))?;
    if !matches!(commit.op, Some(Op::Commit)) {
        return None;
    }
    let text = site.text;
    let mut end = commit.span.end;
    let rest = &text[end..];
    let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    if rest[ws..].starts_with(';') {
        end += ws + 1;
    }
    let tail = &text[end..];
    // Only when the COMMIT ends its line: what follows on it stays put.
    let line_end = tail.find('\n').map_or(tail.len(), |i| i + 1);
    if !tail[..line_end].trim().is_empty() {
        return None;
    }
    Some(end + line_end)
}

/// `body` placed after the COMMIT at `at` (a line ending first when the
/// file's last line has none).
pub fn insert_after_commit(site: &Site, at: usize, body: &str) -> Edit {
    let mut text = String::new();
    if !site.text[..at].ends_with('\n') {
        text.push_str(eol(site.text));
    }
    text.push_str(body);
    site.insert(at, text)
}
