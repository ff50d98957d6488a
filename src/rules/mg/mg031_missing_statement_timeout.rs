//! MG031: a scan or rewrite with no `SET statement_timeout` before it.
//! Reported once per file, at the first such statement.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::history::Tool;
use crate::sql::locks;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let first = fa.stmts.iter().find(|st| {
            !st.statement_timeout
                && (st.rewrite || st.scan)
                && st
                    .effects
                    .iter()
                    .any(|e| e.table.is_some() && c::existing(fa, st, e))
                && !st.effects.iter().any(|e| e.key == "dml")
        });
        let Some(st) = first else { continue };
        let what = if st.rewrite { "rewrites" } else { "scans" };
        let report = c::report(ctx, RuleId::MG031, fa, st);
        // golang-migrate, and diesel and dbmate for a file they run
        // without a transaction, send the file as one query: beside a
        // statement that refuses a transaction a SET cannot stand, so the
        // bound must come from outside the file. The scan is as long
        // either way, so the file is still reported (a single statement is
        // exempt from partial-apply rules, not from this one). A single
        // statement that refuses a transaction is only valid there
        // outside the tool's transaction.
        let alone = fa.stmts.len() == 1 && st.effects.iter().any(|e| !locks::pg(e.key).in_tx);
        let variant = match fa.tool {
            Some(Tool::GolangMigrate) if alone => Some("one_query"),
            Some(Tool::Diesel) if alone => Some("one_query_diesel"),
            Some(Tool::Dbmate) if alone => Some("one_query_dbmate"),
            _ => None,
        };
        let report = match variant {
            Some(v) => report.variant(v),
            None => report,
        };
        sink.push(report.var("kind", &st.kind).var("what", what));
    }
}
