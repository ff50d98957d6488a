//! MG030: statements taking ACCESS EXCLUSIVE / SHARE / SHARE ROW EXCLUSIVE
//! on an existing table with no `SET lock_timeout` before them. Reported
//! once per file, at the first such statement.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::analysis::{FileAnalysis, Stmt};
use crate::sql::locks::PgMode;

fn blocking(fa: &FileAnalysis, st: &Stmt) -> bool {
    !st.lock_timeout
        && st
            .locks
            .iter()
            .any(|(n, m)| *m >= PgMode::Share && *m != PgMode::Exclusive && !fa.is_new(n, st))
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let hits: Vec<&Stmt> = fa.stmts.iter().filter(|s| blocking(fa, s)).collect();
        let Some(first) = hits.first() else { continue };
        sink.push(
            c::report(ctx, RuleId::MG030, fa, first)
                .var("locks", c::locks_text(fa, first))
                .var("count", hits.len()),
        );
    }
}
