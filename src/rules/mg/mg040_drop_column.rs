//! MG040: DROP COLUMN while old application code may still read it.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &c::analysis(ctx).files {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            if fa.is_new(table, st) {
                continue;
            }
            for a in actions {
                if let Alter::DropColumn { name, .. } = a {
                    sink.push(
                        c::report(ctx, RuleId::MG040, fa, st)
                            .var("table", table.display())
                            .var("column", name),
                    );
                }
            }
        }
    }
}
