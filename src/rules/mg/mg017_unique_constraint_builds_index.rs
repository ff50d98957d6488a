//! MG017: ADD UNIQUE / PRIMARY KEY builds its index under ACCESS EXCLUSIVE.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, ConstraintKind, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            for e in st.effects.iter().filter(|e| e.key == "add_unique_pk") {
                let Some(Alter::AddConstraint(con)) = actions.get(e.action as usize) else {
                    continue;
                };
                if !c::existing(fa, st, e) {
                    continue;
                }
                let cols = con.columns.join(", ");
                let kind = if con.kind == ConstraintKind::PrimaryKey {
                    "PRIMARY KEY"
                } else {
                    "UNIQUE"
                };
                let idx = con
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{}_{}_key", table.name, con.columns.join("_")));
                let fix = format!(
                    "CREATE UNIQUE INDEX CONCURRENTLY {idx} ON {table} ({cols}); ALTER TABLE {table} ADD CONSTRAINT {idx} {kind} USING INDEX {idx};"
                );
                sink.push(
                    c::report(ctx, RuleId::MG017, fa, st)
                        .by_size(fa, &[table])
                        .var("kind", kind)
                        .var("table", c::describe(fa, table))
                        .var("fix", fix),
                );
            }
        }
    }
}
