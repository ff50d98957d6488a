//! MG107: ADD COLUMN … AUTO_INCREMENT needs at least LOCK=SHARED.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        for st in &fa.stmts {
            for e in st
                .effects
                .iter()
                .filter(|e| e.key == "add_column_auto_increment")
            {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                sink.push(
                    c::report(ctx, RuleId::MG107, fa, st)
                        .var("table", c::describe(fa, t))
                        .var("column", e.column.clone().unwrap_or_default()),
                );
            }
        }
    }
}
