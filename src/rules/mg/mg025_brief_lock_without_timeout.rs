//! MG025: a brief ACCESS EXCLUSIVE statement on a hot or large table with no
//! lock_timeout: brief to run, but it queues behind any long transaction and
//! every query queues behind it. Where MG030 runs it already counts these
//! statements and its one fix (`SET lock_timeout` first) covers them: MG025
//! speaks only for files MG030 is turned off for (cold tables not gated,
//! the hot ones still are), so one migration never gets the same advice
//! twice.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::context::Heat;
use crate::sql::locks::{self, PgMode};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let path = &ctx.ws.files[fa.file].path;
        if ctx.settings.severity_at(RuleId::MG030, path).0.is_some() {
            continue;
        }
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
            let Some(table) = e.table.as_ref() else {
                continue;
            };
            let mut report = c::report(ctx, RuleId::MG025, fa, st)
                .var("what", &locks::pg(e.key).statement)
                .var("table", c::describe(fa, table))
                .var("locks", c::locks_text(fa, st))
                .by_size(fa, &[table]);
            // Only the size note of the other locking rules (an undeclared
            // table must not read like a measured hot one): a brief lock
            // stays a warning whatever the heat, as MG025.md says.
            report.severity = None;
            sink.push(report);
        }
    }
}
