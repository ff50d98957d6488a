//! MG106: a column-level REFERENCES clause, which MySQL parses and ignores
//! (no foreign key is created).
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::Dialect;
use crate::sql::ops::{Alter, ColumnDef, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    // MariaDB 10.5 started honouring column-level REFERENCES.
    for fa in c::my_files(ctx)
        .filter(|f| f.ctx.dialect == Dialect::MySql || !f.ctx.version.at_least(10, 5, 0))
    {
        for st in &fa.stmts {
            let cols: Vec<(String, &ColumnDef)> = match &st.op {
                Some(Op::CreateTable { name, columns, .. }) => {
                    columns.iter().map(|c| (name.display(), c)).collect()
                }
                Some(Op::AlterTable { table, actions }) => actions
                    .iter()
                    .filter_map(|a| match a {
                        Alter::AddColumn { col, .. } => Some((table.display(), &**col)),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            for (t, col) in cols {
                let Some(r) = &col.references else { continue };
                sink.push(
                    c::report(ctx, RuleId::MG106, fa, st)
                        .var("column", format!("{t}.{}", col.name))
                        .var("referenced", r.display())
                        .var(
                            "fix",
                            format!("FOREIGN KEY ({}) REFERENCES {r} (id)", col.name),
                        ),
                );
            }
        }
    }
}
