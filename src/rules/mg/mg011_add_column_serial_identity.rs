//! MG011: ADD COLUMN serial/bigserial, identity or stored generated: rewrite.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            for e in &st.effects {
                let what = match e.key {
                    "add_column_serial" => "a serial column (its nextval() default is volatile)",
                    "add_column_identity" => "an identity column",
                    "add_column_generated_stored" => "a stored generated column",
                    _ => continue,
                };
                let Some(Alter::AddColumn { col, .. }) = actions.get(e.action as usize) else {
                    continue;
                };
                if !c::existing(fa, st, e) {
                    continue;
                }
                let t = table.display();
                let n = &col.name;
                let fix = format!(
                    "ALTER TABLE {t} ADD COLUMN {n} bigint; CREATE SEQUENCE {tn}_{n}_seq OWNED BY {t}.{n}; ALTER TABLE {t} ALTER COLUMN {n} SET DEFAULT nextval('{tn}_{n}_seq'); then backfill existing rows in batches",
                    tn = table.name
                );
                sink.push(
                    c::report(ctx, RuleId::MG011, fa, st)
                        .by_size(fa, &[table])
                        .var("table", c::describe(fa, table))
                        .var("column", n)
                        .var("what", what)
                        .var("fix", fix),
                );
            }
        }
    }
}
