//! MG014: ADD CHECK without NOT VALID scans the table under ACCESS EXCLUSIVE.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "add_check") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let name = if e.detail.is_empty() {
                    "<name>"
                } else {
                    &e.detail
                };
                let sql = c::text(ctx, fa, st).trim_end();
                let fix = format!(
                    "{sql} NOT VALID; -- then, in a separate transaction: ALTER TABLE {t} VALIDATE CONSTRAINT {name};"
                );
                sink.push(
                    c::report(ctx, RuleId::MG014, fa, st)
                        .by_size(fa, &[t])
                        .var("table", c::describe(fa, t))
                        .var("constraint", name)
                        .var("fix", fix),
                );
            }
        }
    }
}
