//! MG031: a scan or rewrite with no `SET statement_timeout` before it.
//! Reported once per file, at the first such statement.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

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
        sink.push(
            c::report(ctx, RuleId::MG031, fa, st)
                .var("kind", &st.kind)
                .var("what", what),
        );
    }
}
