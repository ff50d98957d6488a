//! MG102: an INPLACE table rebuild on a hot or large table: DML continues,
//! but the rebuild costs I/O and replica lag for the table's whole size.
//! Only on a table declared hot or large: the rebuild blocks nothing, so
//! an undeclared size is no reason to fail closed (and no cost is known).
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::context::Heat;
use crate::sql::locks::{self, Algorithm};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        for st in &fa.stmts {
            for e in &st.effects {
                if !matches!(
                    e.key,
                    "add_pk" | "drop_add_pk" | "row_format" | "rebuild" | "add_fulltext"
                ) {
                    continue;
                }
                let row = locks::mysql(e.key);
                let plan = row.plan(fa.ctx.dialect, fa.ctx.version);
                if plan.algorithm == Algorithm::Copy {
                    continue;
                }
                let Some(t) = e
                    .table
                    .as_ref()
                    .filter(|t| matches!(fa.ctx.heat(&t.name), Heat::Hot | Heat::Large(_)))
                else {
                    continue;
                };
                if fa.is_new(t, st) {
                    continue;
                }
                sink.push(
                    c::report(ctx, RuleId::MG102, fa, st)
                        .var("what", &row.operation)
                        .var("table", c::describe(fa, t))
                        .var("mode", crate::sql::analysis::my_mode(plan)),
                );
            }
        }
    }
}
