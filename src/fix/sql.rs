//! PostgreSQL fixes that stay in one statement: `CONCURRENTLY` for index
//! builds and drops (MG001, MG002) with the tool's transaction opt-out, and
//! the `lock_timeout` / `statement_timeout` preamble (MG030, MG031).
use super::{Site, eol, fix, indent_at, line_start};
use super::{next, opt_out};
use crate::catalog::{FixSafety, RuleId};
use crate::finding::{Edit, Fix};
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::sync::LazyLock;

static CREATE_INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\b").unwrap());
static DROP_INDEX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?is)^DROP\s+INDEX\b").unwrap());

pub fn compute(site: &Site, rule: RuleId) -> Option<Fix> {
    match rule {
        RuleId::MG001 => create_index(site),
        RuleId::MG002 => drop_index(site),
        RuleId::MG030 => preamble(site, "SET lock_timeout = '2s';", "lock_timeout", |st| {
            st.lock_timeout
        }),
        RuleId::MG031 => preamble(
            site,
            "SET statement_timeout = '15min';",
            "statement_timeout",
            |st| st.statement_timeout,
        ),
        _ => None,
    }
}

fn create_index(site: &Site) -> Option<Fix> {
    let Some(Op::CreateIndex {
        name,
        concurrently: false,
        if_not_exists,
        ..
    }) = &site.st.op
    else {
        return None;
    };
    let text = site.stmt_text();
    // `ON ONLY parent` builds a partitioned index, which cannot be built
    // concurrently: a person splits it per partition.
    if text.to_ascii_uppercase().contains(" ONLY ") {
        return None;
    }
    let m = CREATE_INDEX.find(text)?;
    let mut words = String::from(" CONCURRENTLY");
    if name.is_some() && !if_not_exists {
        words.push_str(" IF NOT EXISTS");
    }
    let at = site.st.span.start + m.end();
    let rewritten = format!("{}{words}{}", &text[..m.end()], &text[m.end()..]);
    outside_tx(
        site,
        site.insert(at, words),
        rewritten,
        "build the index with CREATE INDEX CONCURRENTLY",
    )
}

fn drop_index(site: &Site) -> Option<Fix> {
    let Some(Op::DropIndex {
        names,
        table: None,
        concurrently: false,
        if_exists,
    }) = &site.st.op
    else {
        return None;
    };
    let text = site.stmt_text();
    // DROP INDEX CONCURRENTLY drops one index and refuses CASCADE.
    if names.len() != 1 || text.to_ascii_uppercase().contains("CASCADE") {
        return None;
    }
    let m = DROP_INDEX.find(text)?;
    let mut words = String::from(" CONCURRENTLY");
    if !if_exists {
        words.push_str(" IF EXISTS");
    }
    let at = site.st.span.start + m.end();
    let rewritten = format!("{}{words}{}", &text[..m.end()], &text[m.end()..]);
    outside_tx(
        site,
        site.insert(at, words),
        rewritten,
        "drop the index with DROP INDEX CONCURRENTLY",
    )
}

/// A statement that must run outside a transaction: rewritten in place with
/// the tool's opt-out when it is the only work of its script, else moved
/// to a migration of its own right after this one.
fn outside_tx(site: &Site, in_place: Edit, rewritten: String, title: &str) -> Option<Fix> {
    let alone = site
        .fa
        .stmts
        .iter()
        .all(|s| s.index == site.st.index || is_session(s));
    if site.st.tx.is_none() {
        return Some(fix(title, FixSafety::Safe, vec![in_place]));
    }
    if alone && site.st.tx == Some(0) {
        // popx opts out by file name: the statement gets a migration of
        // its own (an `.autocommit` one) instead; golang-migrate by the
        // file holding one statement.
        if let Some(opt_out) = opt_out::opt_out(site) {
            let mut edits = vec![in_place];
            edits.extend(opt_out);
            return Some(fix(
                format!("{title}, outside the {} transaction", tool_name(site)),
                FixSafety::Safe,
                edits,
            ));
        }
        if site.fa.tool == Some(Tool::GolangMigrate) {
            return Some(fix(
                format!("{title}, alone in its golang-migrate file"),
                FixSafety::Safe,
                next::alone_in_one_query(site, vec![in_place]),
            ));
        }
    }
    let moved = next::move_to_following(site, &[rewritten], true)?;
    Some(fix(
        format!("{title}, in a migration of its own"),
        moved.safety,
        moved.edits,
    ))
}

fn tool_name(site: &Site) -> &'static str {
    site.fa.tool.map_or("migration", Tool::as_str)
}

/// SET / RESET / transaction control: statements that do no work a split
/// could reorder.
pub(crate) fn is_session(st: &crate::sql::analysis::Stmt) -> bool {
    matches!(&st.op, Some(Op::Set { .. })) || st.op.as_ref().is_some_and(Op::is_transaction_control)
}

/// A `SET <name>` line before the first statement of the script that runs
/// without it and is flagged (every finding of the file yields the same
/// edit, so applying them all inserts it once).
fn preamble(
    site: &Site,
    set: &str,
    what: &str,
    has: fn(&crate::sql::analysis::Stmt) -> bool,
) -> Option<Fix> {
    if has(site.st) {
        return None;
    }
    // golang-migrate sends a file as one query: a second statement makes
    // it a transaction, which a CONCURRENTLY or VACUUM statement refuses
    // (a VALIDATE accepts it, and gets its SET).
    if site.fa.tool == Some(Tool::GolangMigrate)
        && site.fa.stmts.len() == 1
        && (site.st.effects.iter()).any(|e| !crate::sql::locks::pg(e.key).in_tx)
    {
        return None;
    }
    let first = site
        .fa
        .stmts
        .iter()
        .find(|s| !has(s) && !is_session(s) && s.index <= site.st.index)?;
    let at = line_start(site.text, first.span.start);
    // Only when the statement starts its line: an insertion mid-line would
    // change the statement before it.
    if !site.text[at..first.span.start].trim().is_empty() {
        return None;
    }
    let indent = indent_at(site.text, first.span.start);
    let nl = eol(site.text);
    let mut edits = vec![site.insert(at, format!("{indent}{set}{nl}"))];
    // Flyway runs a script outside a transaction only when every statement
    // needs it; a SET would pull it back in, so the script says so itself.
    if site.fa.tool == Some(Tool::Flyway) && site.fa.stmts.iter().all(|s| s.tx.is_none()) {
        edits.extend(opt_out::opt_out(site)?);
    }
    Some(fix(
        format!("set {what} before the first statement that needs it"),
        FixSafety::Safe,
        edits,
    ))
}
