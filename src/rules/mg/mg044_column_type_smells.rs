//! MG044: column types PostgreSQL users regret: json, char(n), timestamp
//! without time zone, integer primary keys.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, ColumnDef, Op};

fn smell(col: &ColumnDef) -> Option<(&'static str, &'static str)> {
    match col.ty.base.as_str() {
        "json" => Some(("json", "jsonb")),
        "char" => Some(("char(n)", "text or varchar(n)")),
        "timestamp" => Some(("timestamp without time zone", "timestamptz")),
        "integer" | "serial" if col.primary_key => Some((
            "an integer primary key",
            "bigint GENERATED ALWAYS AS IDENTITY",
        )),
        _ => None,
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let cols: Vec<(&str, &ColumnDef)> = match &st.op {
                Some(Op::CreateTable { name, columns, .. }) => {
                    columns.iter().map(|c| (name.name.as_str(), c)).collect()
                }
                Some(Op::AlterTable { table, actions }) => actions
                    .iter()
                    .filter_map(|a| match a {
                        Alter::AddColumn { col, .. } => Some((table.name.as_str(), &**col)),
                        Alter::ColumnType { col, .. } => Some((table.name.as_str(), &**col)),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            for (table, col) in cols {
                if let Some((what, instead)) = smell(col) {
                    sink.push(
                        c::report(ctx, RuleId::MG044, fa, st)
                            .var("column", format!("{table}.{}", col.name))
                            .var("what", what)
                            .var("instead", instead),
                    );
                }
            }
        }
    }
}
