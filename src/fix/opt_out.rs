//! The tool's own transaction opt-out for the flagged file: a goose,
//! dbmate or sql-migrate directive, a Flyway sidecar `.conf`, diesel's
//! `metadata.toml`, Liquibase's `runInTransaction:false`.
use super::{Site, diesel, eol, place};
use crate::finding::Edit;
use crate::sql::history::Tool;
use regex::Regex;
use std::path::PathBuf;

/// The edits that make the tool run the flagged file outside its transaction.
pub fn opt_out(site: &Site) -> Option<Vec<Edit>> {
    let nl = eol(site.text);
    match site.fa.tool? {
        Tool::Flyway => Some(vec![sidecar(site)]),
        Tool::Goose => Some(vec![
            site.insert(0, format!("-- +goose NO TRANSACTION{nl}")),
        ]),
        Tool::Dbmate => directive_suffix(
            site,
            r"(?im)^--[ \t]*migrate:up\b[^\r\n]*",
            " transaction:false",
        ),
        Tool::SqlMigrate => directive_suffix(
            site,
            r"(?im)^--[ \t]*\+migrate[ \t]+up\b[^\r\n]*",
            " notransaction",
        ),
        Tool::Diesel => diesel::opt_out(site),
        Tool::Liquibase => place::liquibase_opt_out(site),
        // golang-migrate and popx opt out by file (one statement, an
        // `.autocommit` name): the work moves to a migration of its own.
        // Alembic, Django and Rails opt out in their Python or Ruby code,
        // which platcheck does not read: no fix writes it.
        _ => None,
    }
}

fn sidecar(site: &Site) -> Edit {
    let mut path = site.path.as_os_str().to_owned();
    path.push(".conf");
    Edit {
        path: PathBuf::from(path),
        start: 0,
        end: 0,
        text: format!("executeInTransaction=false{}", eol(site.text)),
        create: true,
    }
}

fn directive_suffix(site: &Site, pattern: &str, suffix: &str) -> Option<Vec<Edit>> {
    let m = Regex::new(pattern).ok()?.find(site.text)?;
    if m.end() > site.st.span.start {
        return None;
    }
    Some(vec![site.insert(m.end(), suffix)])
}
