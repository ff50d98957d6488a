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
        // golang-migrate sends the file as one query: beside a statement
        // that refuses a transaction a SET cannot stand, so the bound must
        // come from the database URL. The scan is as long either way, so
        // the file is still reported (a single statement is exempt from
        // partial-apply rules, not from this one).
        let one_query = fa.tool == Some(Tool::GolangMigrate)
            && fa.stmts.len() == 1
            && st.effects.iter().any(|e| !locks::pg(e.key).in_tx);
        let report = if one_query {
            report.variant("one_query")
        } else {
            report
        };
        sink.push(report.var("kind", &st.kind).var("what", what));
    }
}
