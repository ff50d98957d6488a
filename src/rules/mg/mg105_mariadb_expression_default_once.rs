//! MG105: MariaDB evaluates an ADD COLUMN DEFAULT like RAND() once for all
//! existing rows.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::Dialect;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx).filter(|f| f.ctx.dialect == Dialect::MariaDb) {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            for a in actions {
                let Alter::AddColumn { col, .. } = a else {
                    continue;
                };
                let Some(d) = col.default.as_ref().filter(|d| d.volatile) else {
                    continue;
                };
                sink.push(
                    c::report(ctx, RuleId::MG105, fa, st)
                        .var("column", format!("{table}.{}", col.name))
                        .var("default", &d.raw),
                );
            }
        }
    }
}
