//! MG103: ALTER on a hot or large table without ALGORITHM=INSTANT, or
//! ALGORITHM=INPLACE with LOCK=NONE: with the guard the server refuses
//! instead of silently falling back to a blocking copy. Not where the
//! statement already chose a blocking ALGORITHM/LOCK (MG100 says so), nor
//! where the change can only run as a copy (MG101: a guard would only make
//! it fail; the change itself must go another way).
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::context::Heat;
use crate::sql::locks::{self, Algorithm};
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            if fa.ctx.heat(&table.name) == Heat::Normal || fa.is_new(table, st) {
                continue;
            }
            let algo = actions.iter().find_map(|a| match a {
                Alter::Algorithm(v) => Some(v.as_str()),
                _ => None,
            });
            let lock_none = actions
                .iter()
                .any(|a| matches!(a, Alter::LockClause(v) if v == "NONE"));
            let guarded = match algo {
                Some("INSTANT") => true,
                Some("INPLACE" | "NOCOPY") => lock_none,
                _ => false,
            };
            let blocking_clause = algo == Some("COPY")
                || actions.iter().any(
                    |a| matches!(a, Alter::LockClause(v) if v == "SHARED" || v == "EXCLUSIVE"),
                );
            let copy_only = st.effects.iter().any(|e| {
                locks::mysql(e.key)
                    .plan(fa.ctx.dialect, fa.ctx.version)
                    .algorithm
                    == Algorithm::Copy
            });
            if guarded || blocking_clause || copy_only {
                continue;
            }
            let guard = match st.plan.map(|p| p.algorithm) {
                Some(Algorithm::Instant) => "ALGORITHM=INSTANT",
                _ => "ALGORITHM=INPLACE, LOCK=NONE",
            };
            let sql = c::text(ctx, fa, st).trim_end();
            sink.push(
                c::report(ctx, RuleId::MG103, fa, st)
                    .var("table", c::describe(fa, table))
                    .var("fix", format!("{sql}, {guard};")),
            );
        }
    }
}
