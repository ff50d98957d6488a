//! The timeouts a follow-up migration starts with: the flagged script's own
//! `SET lock_timeout` / `SET statement_timeout`, else the defaults the
//! timeout rules ask for; and, where the tool cannot hold a SET beside the
//! statement (golang-migrate's one query), the note saying where the bound
//! goes instead.
use super::{Site, eol};
use crate::sql::ops::Op;

/// The script's timeouts for a migration written after it.
pub(crate) fn preamble(site: &Site) -> String {
    let nl = eol(site.text);
    [("lock_timeout", "'2s'"), ("statement_timeout", "'15min'")]
        .iter()
        .map(|(setting, default)| format!("{}{nl}", session_setting(site, setting, default)))
        .collect()
}

/// Why a one-query (golang-migrate, diesel) follow-up has no `SET statement_timeout`
/// and where its bound goes instead: the fix must not drop the flagged
/// script's timeout without saying so (MG031 reports the file as well).
pub(crate) fn unbounded_note(site: &Site) -> String {
    let nl = eol(site.text);
    let flagged = site.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let had = site
        .fa
        .stmts
        .iter()
        .find(|s| is_set(s, "statement_timeout"))
        .map(|s| {
            format!(
                " ({flagged} had `{}`)",
                &site.text[s.span.start..s.span.end]
            )
        })
        .unwrap_or_default();
    let (tool, bound) = match site.fa.tool {
        Some(crate::sql::history::Tool::Diesel) => (
            "diesel",
            "options=-c statement_timeout=<milliseconds> in the database URL",
        ),
        // dbmate's URL goes to its Go driver, whose parameters platcheck
        // has not checked: the role's setting is sure to apply.
        Some(crate::sql::history::Tool::Dbmate) => (
            "dbmate",
            "the migrating role's statement_timeout (ALTER ROLE … SET statement_timeout)",
        ),
        _ => (
            "golang-migrate",
            "x-statement-timeout=<milliseconds> in the database URL",
        ),
    };
    format!(
        "-- No SET statement_timeout{had}: {tool} sends this file as one query,{nl}\
         -- and a SET would make it a transaction, which this statement refuses.{nl}\
         -- Bound it with {bound}.{nl}"
    )
}

pub(crate) fn is_set(s: &crate::sql::analysis::Stmt, setting: &str) -> bool {
    matches!(&s.op, Some(Op::Set { name, .. }) if name.eq_ignore_ascii_case(setting))
}

/// The script's own `SET <setting>` statement, else one with `default`.
fn session_setting(site: &Site, setting: &str, default: &str) -> String {
    site.fa
        .stmts
        .iter()
        .find(|s| is_set(s, setting))
        .map(|s| format!("{};", &site.text[s.span.start..s.span.end]))
        .unwrap_or_else(|| format!("SET {setting} = {default};"))
}
