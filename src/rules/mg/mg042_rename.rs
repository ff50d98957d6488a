//! MG042: renaming a column, table or schema breaks the code still running.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &c::analysis(ctx).files {
        for st in &fa.stmts {
            let mut found: Vec<String> = Vec::new();
            match &st.op {
                Some(Op::AlterTable { table, actions }) if !fa.is_new(table, st) => {
                    for a in actions {
                        match a {
                            Alter::RenameColumn { from, to } => {
                                found.push(format!("column {table}.{from} to {to}"))
                            }
                            Alter::ColumnType {
                                name,
                                new_name: Some(to),
                                ..
                            } => found.push(format!("column {table}.{name} to {to}")),
                            Alter::RenameTo(to) => found.push(format!("table {table} to {to}")),
                            _ => {}
                        }
                    }
                }
                Some(Op::RenameTable { from, to }) if !fa.is_new(from, st) => {
                    found.push(format!("table {from} to {to}"))
                }
                Some(Op::RenameSchema) => found.push("a schema".into()),
                _ => {}
            }
            for what in found {
                sink.push(c::report(ctx, RuleId::MG042, fa, st).var("what", what));
            }
        }
    }
}
