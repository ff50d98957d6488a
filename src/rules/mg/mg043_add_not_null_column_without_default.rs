//! MG043: ADD COLUMN … NOT NULL without a default on an existing table.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &c::analysis(ctx).files {
        let my = fa.ctx.dialect.is_mysql();
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            if fa.is_new(table, st) {
                continue;
            }
            for a in actions {
                let Alter::AddColumn { col, .. } = a else {
                    continue;
                };
                let generated = col.identity
                    || col.generated_stored
                    || col.auto_increment
                    || col.ty.base.ends_with("serial");
                if !col.not_null || col.default.is_some() || generated || col.primary_key {
                    continue;
                }
                let t = table.display();
                let fix = format!(
                    "ALTER TABLE {t} ADD COLUMN {n} {ty}; backfill it; then make it NOT NULL (MG013), or give it a DEFAULT",
                    n = col.name,
                    ty = col.ty.raw
                );
                sink.push(
                    c::report(ctx, RuleId::MG043, fa, st)
                        .variant(if my { "mysql" } else { "postgresql" })
                        .var("table", t)
                        .var("column", &col.name)
                        .var("fix", fix),
                );
            }
        }
    }
}
