//! MG018: ADD PRIMARY KEY USING INDEX sets NOT NULL on its columns, which
//! scans the table unless they are already NOT NULL.
use super::common::{self as c};
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
            for e in st
                .effects
                .iter()
                .filter(|e| e.key == "add_unique_pk_using_index")
            {
                match actions.get(e.action as usize) {
                    Some(Alter::AddConstraint(con)) if con.kind == ConstraintKind::PrimaryKey => {}
                    _ => continue,
                }
                if !c::existing(fa, st, e) {
                    continue;
                }
                sink.push(
                    c::report(ctx, RuleId::MG018, fa, st).var("table", c::describe(fa, table)),
                );
            }
        }
    }
}
