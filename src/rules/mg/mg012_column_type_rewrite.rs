//! MG012: ALTER COLUMN TYPE that is not binary-coercible: table and index rewrite.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "alter_type_rewrite") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let col = e.column.clone().unwrap_or_default();
                let fix = format!(
                    "ALTER TABLE {t} ADD COLUMN {col}_new <new type>; keep both in sync (trigger or dual write); backfill {col}_new in batches; then in one short transaction rename {col} to {col}_old and {col}_new to {col}"
                );
                sink.push(
                    c::report(ctx, RuleId::MG012, fa, st)
                        .by_size(fa, &[t])
                        .var("table", c::describe(fa, t))
                        .var("column", &col)
                        .var("change", &e.detail)
                        .var("fix", fix),
                );
            }
        }
    }
}
