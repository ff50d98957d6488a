//! MG013: SET NOT NULL scans the table under ACCESS EXCLUSIVE unless a
//! validated CHECK (col IS NOT NULL) already proves it (PG 12+).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let pg12 = fa.ctx.version.at_least(12, 0, 0);
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "set_not_null") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                if e.covered && pg12 {
                    continue;
                }
                let col = e.column.clone().unwrap_or_default();
                let k = format!("{}_{col}_not_null", t.name);
                let fix = format!(
                    "ALTER TABLE {t} ADD CONSTRAINT {k} CHECK ({col} IS NOT NULL) NOT VALID; -- next migration: ALTER TABLE {t} VALIDATE CONSTRAINT {k}; ALTER TABLE {t} ALTER COLUMN {col} SET NOT NULL; ALTER TABLE {t} DROP CONSTRAINT {k};"
                );
                sink.push(
                    c::report(ctx, RuleId::MG013, fa, st)
                        .by_size(fa, &[t])
                        .var("table", c::describe(fa, t))
                        .var("column", &col)
                        .var("fix", fix),
                );
            }
        }
    }
}
