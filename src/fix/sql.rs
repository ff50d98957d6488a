//! PostgreSQL fixes that stay in one statement: `CONCURRENTLY` for index
//! builds and drops (MG001, MG002) with the tool's transaction opt-out, and
//! the `lock_timeout` / `statement_timeout` preamble (MG030, MG031).
use super::{Site, eol, fix, indent_at, line_start};
use super::{index_name, next, opt_out};
use crate::catalog::{FixSafety, RuleId};
use crate::finding::{Edit, Fix};
use crate::sql::analysis::Stmt;
use crate::sql::history::Tool;
use crate::sql::ops::Op;
use regex::Regex;
use std::sync::LazyLock;

static CREATE_INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\b").unwrap());
static DROP_INDEX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?is)^DROP\s+INDEX\b").unwrap());

pub fn compute(site: &Site, rule: RuleId) -> Option<Fix> {
    match rule {
        RuleId::MG001 if matches!(site.st.op, Some(Op::CreateIndex { .. })) => {
            outside_tx(site, "build the index with CREATE INDEX CONCURRENTLY")
        }
        RuleId::MG002 if matches!(site.st.op, Some(Op::DropIndex { .. })) => {
            outside_tx(site, "drop the index with DROP INDEX CONCURRENTLY")
        }
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

/// An index build or drop rewritten to run concurrently: the insertion
/// that does it in place and the statement as it then reads.
struct Concurrent<'a> {
    st: &'a Stmt,
    edit: Edit,
    text: String,
}

/// `st` (an index build or drop of the flagged script) with
/// `CONCURRENTLY`, when PostgreSQL can run it so.
fn concurrent<'a>(site: &Site, st: &'a Stmt) -> Option<Concurrent<'a>> {
    let text = &site.text[st.span.start..st.span.end];
    let (m, words) = match &st.op {
        Some(Op::CreateIndex {
            name,
            concurrently: false,
            if_not_exists,
            ..
        }) => {
            // `ON ONLY parent` builds a partitioned index, which cannot be
            // built concurrently: a person splits it per partition.
            if text.to_ascii_uppercase().contains(" ONLY ") {
                return None;
            }
            let words = match name {
                Some(_) if !if_not_exists => " CONCURRENTLY IF NOT EXISTS".to_string(),
                Some(_) => " CONCURRENTLY".to_string(),
                None => match index_name::default_name(text) {
                    Some(n) => format!(" CONCURRENTLY IF NOT EXISTS {n}"),
                    None => " CONCURRENTLY".to_string(),
                },
            };
            (CREATE_INDEX.find(text)?, words)
        }
        Some(Op::DropIndex {
            names,
            table: None,
            concurrently: false,
            if_exists,
        }) => {
            // DROP INDEX CONCURRENTLY drops one index and refuses CASCADE.
            if names.len() != 1 || text.to_ascii_uppercase().contains("CASCADE") {
                return None;
            }
            let mut words = String::from(" CONCURRENTLY");
            if !if_exists {
                words.push_str(" IF EXISTS");
            }
            (DROP_INDEX.find(text)?, words)
        }
        _ => return None,
    };
    let rewritten = format!("{}{words}{}", &text[..m.end()], &text[m.end()..]);
    Some(Concurrent {
        st,
        edit: site.insert(st.span.start + m.end(), words),
        text: rewritten,
    })
}

/// The index builds and drops that end the script, in order, when the
/// flagged statement is one of them (else empty): on an index of a table
/// the script creates, or in another transaction, the run stops.
fn trailing_run<'a>(site: &Site<'a>) -> Vec<Concurrent<'a>> {
    let mut run = index_work_at_end(site, site.st.tx);
    if !run.iter().any(|c| c.st.index == site.st.index) {
        run.clear();
    }
    run
}

/// The index builds and drops in transaction `tx` that end the script.
fn index_work_at_end<'a>(site: &Site<'a>, tx: Option<u32>) -> Vec<Concurrent<'a>> {
    let mut run = Vec::new();
    for st in site.fa.stmts.iter().rev() {
        if is_session(st) {
            continue;
        }
        let new_table = match &st.op {
            Some(Op::CreateIndex { table, .. }) => site.fa.created.contains_key(&table.name),
            Some(Op::DropIndex { names, .. }) => {
                names.iter().any(|n| site.fa.created.contains_key(&n.name))
            }
            _ => true,
        };
        match concurrent(site, st) {
            Some(c) if st.tx == tx && !new_table => run.push(c),
            _ => break,
        }
    }
    run.reverse();
    run
}

/// Whether the script's work is all index builds and drops in the tool's
/// transaction: their fix leaves each alone in a file of its own.
fn all_index_work(site: &Site) -> bool {
    let run = index_work_at_end(site, Some(0));
    run.first().is_some_and(|first| {
        !(site.fa.stmts.iter()).any(|s| s.index < first.st.index && !is_session(s))
    })
}

/// A statement that must run outside a transaction: rewritten in place
/// with the tool's opt-out when the index work is all the script does,
/// else moved to a migration of its own right after this one. The index
/// work that ends the script moves (or stays) together, every statement of
/// it getting the same fix: one pass fixes them all, in their order (one
/// at a time, each pass moved the last one, reversing them).
fn outside_tx(site: &Site, title: &str) -> Option<Fix> {
    let here = concurrent(site, site.st)?;
    if site.st.tx.is_none() {
        return Some(fix(title, FixSafety::Safe, vec![here.edit]));
    }
    let run = trailing_run(site);
    let Some(first) = run.first() else {
        // Other work follows: the statement alone moves (unsafe: that
        // work now runs before it).
        let moved = next::move_to_following(site, &[here.text], true)?;
        return Some(fix(
            format!("{title}, in a migration of its own"),
            moved.safety,
            moved.edits,
        ));
    };
    let whole = !site
        .fa
        .stmts
        .iter()
        .any(|s| s.index < first.st.index && !is_session(s));
    if whole && site.st.tx == Some(0) {
        // golang-migrate opts out by the file holding one statement.
        let opt_out = match site.fa.tool {
            Some(Tool::GolangMigrate) => Some(Vec::new()),
            _ => opt_out::opt_out(site),
        };
        if let Some(opt_out) = opt_out.as_ref().filter(|_| next::one_query(site)) {
            // The first statement keeps the file (its SETs go), the rest
            // follow, one a migration.
            let mut edits = next::alone_in_one_query(site, first.st, vec![first.edit.clone()]);
            edits.extend(opt_out.iter().cloned());
            edits.extend(one_each(site, &run[1..])?);
            edits.extend(run[1..].iter().map(|c| next::removal_of(site, c.st)));
            let rest = if run.len() > 1 {
                ", the index work after it each in a migration of its own"
            } else {
                ""
            };
            return Some(fix(
                format!("{title}, alone in its {} file{rest}", tool_name(site)),
                FixSafety::Safe,
                edits,
            ));
        }
        // popx opts out by file name (an `.autocommit` migration): the
        // work moves to one.
        if let Some(opt_out) = opt_out {
            let mut edits: Vec<Edit> = run.iter().map(|c| c.edit.clone()).collect();
            edits.extend(opt_out);
            return Some(fix(
                format!("{title}, outside the {} transaction", tool_name(site)),
                FixSafety::Safe,
                edits,
            ));
        }
    }
    let mut edits = if next::one_query(site) {
        one_each(site, &run)?
    } else {
        let stmts: Vec<String> = run.iter().map(|c| c.text.clone()).collect();
        next::following(site, &stmts, true, &next::describe_stmt(first.st))?
    };
    edits.extend(run.iter().map(|c| next::removal_of(site, c.st)));
    let what = if run.len() > 1 {
        "with the index work after it, in a migration of its own"
    } else {
        "in a migration of its own"
    };
    Some(fix(format!("{title}, {what}"), FixSafety::Safe, edits))
}

/// Each statement of `run` in a migration of its own, one after the other.
fn one_each(site: &Site, run: &[Concurrent]) -> Option<Vec<Edit>> {
    let texts: Vec<[String; 1]> = run.iter().map(|c| [c.text.clone()]).collect();
    let chain: Vec<next::Follow> = run
        .iter()
        .zip(&texts)
        .map(|(c, t)| next::Follow {
            stmts: t,
            no_tx: true,
            desc: next::describe_stmt(c.st),
            undo: None,
        })
        .collect();
    next::following_chain(site, &chain)
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
    // golang-migrate (and diesel outside its transaction) sends a file as
    // one query: a second statement makes
    // it a transaction, which a CONCURRENTLY or VACUUM statement refuses
    // (a VALIDATE accepts it, and gets its SET).
    if next::one_query(site)
        && site.fa.stmts.len() == 1
        && (site.st.effects.iter()).any(|e| !crate::sql::locks::pg(e.key).in_tx)
    {
        return None;
    }
    // Nor where the index fix leaves each statement alone in a file (the
    // SET it would add goes again, and the files it writes say where the
    // bound goes).
    if next::one_query(site) && all_index_work(site) {
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
