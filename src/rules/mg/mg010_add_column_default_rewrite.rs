//! MG010: ADD COLUMN whose default forces a table rewrite (a volatile
//! default, or any default before PostgreSQL 11).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let old_pg = !fa.ctx.version.at_least(11, 0, 0);
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            for e in &st.effects {
                let hit = e.key == "add_column_volatile_default"
                    || (e.key == "add_column_default" && old_pg);
                if !hit || !c::existing(fa, st, e) {
                    continue;
                }
                let Some(Alter::AddColumn { col, .. }) = actions.get(e.action as usize) else {
                    continue;
                };
                let default = col
                    .default
                    .as_ref()
                    .map(|d| d.raw.clone())
                    .unwrap_or_default();
                let why = if e.key == "add_column_volatile_default" {
                    format!("the volatile default {default} is computed for every existing row")
                } else {
                    format!(
                        "PostgreSQL {} stores any default in every row",
                        fa.ctx.version
                    )
                };
                let t = table.display();
                let fix = format!(
                    "ALTER TABLE {t} ADD COLUMN {n} {ty}; ALTER TABLE {t} ALTER COLUMN {n} SET DEFAULT {default}; then backfill in batches: UPDATE {t} SET {n} = {default} WHERE id BETWEEN :from AND :to AND {n} IS NULL;",
                    n = col.name,
                    ty = col.ty.raw
                );
                sink.push(
                    c::report(ctx, RuleId::MG010, fa, st)
                        .by_size(fa, &[table])
                        .var("table", c::describe(fa, table))
                        .var("column", &col.name)
                        .var("why", why)
                        .var("fix", fix),
                );
            }
        }
    }
}
