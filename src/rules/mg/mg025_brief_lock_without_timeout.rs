//! MG025: a brief ACCESS EXCLUSIVE statement on a hot or large table with no
//! lock_timeout: brief to run, but it queues behind any long transaction and
//! every query queues behind it.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::context::Heat;
use crate::sql::locks::{self, PgMode};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            if st.lock_timeout || st.rewrite || st.scan {
                continue;
            }
            let hit = st.effects.iter().find(|e| {
                let row = locks::pg(e.key);
                row.lock >= PgMode::ShareRowExclusive
                    && c::existing(fa, st, e)
                    && e.table
                        .as_ref()
                        .is_some_and(|t| fa.ctx.heat(&t.name) != Heat::Normal)
            });
            let Some(e) = hit else { continue };
            let t = e
                .table
                .as_ref()
                .map(|t| c::describe(fa, t))
                .unwrap_or_default();
            sink.push(
                c::report(ctx, RuleId::MG025, fa, st)
                    .var("what", &locks::pg(e.key).statement)
                    .var("table", t)
                    .var("locks", c::locks_text(fa, st)),
            );
        }
    }
}
