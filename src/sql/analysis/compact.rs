//! Every statement's `Op` is kept until the rules have run (they read its
//! columns, constraints and actions), so the lists the classifier grew by
//! pushing give back their spare room first: a list of one column or one
//! constraint column keeps room for four, which at the 100k-statement
//! bench of issue 21 was megabytes of nothing.
use crate::sql::ops::{Alter, ColumnDef, Constraint, Op};

pub fn compact(op: &mut Op) {
    match op {
        Op::CreateTable {
            columns,
            constraints,
            ..
        } => {
            columns.iter_mut().for_each(column);
            constraints.iter_mut().for_each(constraint);
            columns.shrink_to_fit();
            constraints.shrink_to_fit();
        }
        Op::AlterTable { actions, .. } => {
            for a in actions.iter_mut() {
                match a {
                    Alter::AddColumn { col, .. } | Alter::ColumnType { col, .. } => column(col),
                    Alter::AddConstraint(c) => constraint(c),
                    _ => {}
                }
            }
            actions.shrink_to_fit();
        }
        Op::CreateIndex { columns, .. } => columns.shrink_to_fit(),
        Op::CreateView { deps, .. } => deps.shrink_to_fit(),
        _ => {}
    }
}

fn column(c: &mut ColumnDef) {
    c.ty.args.shrink_to_fit();
    c.ty.members.shrink_to_fit();
    c.checks.iter_mut().for_each(Vec::shrink_to_fit);
    c.checks.shrink_to_fit();
    if let Some(d) = &mut c.default {
        d.calls.shrink_to_fit();
    }
}

fn constraint(c: &mut Constraint) {
    c.columns.shrink_to_fit();
    c.ref_columns.shrink_to_fit();
}
