//! MG100: an explicit ALGORITHM=COPY or LOCK=SHARED/EXCLUSIVE.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, actions }) = &st.op else {
                continue;
            };
            let clause = actions.iter().find_map(|a| match a {
                Alter::Algorithm(v) if v == "COPY" => Some(format!("ALGORITHM={v}")),
                Alter::LockClause(v) if v == "SHARED" || v == "EXCLUSIVE" => {
                    Some(format!("LOCK={v}"))
                }
                _ => None,
            });
            let Some(clause) = clause else { continue };
            if fa.is_new(table, st) {
                continue;
            }
            let blocks = if clause == "LOCK=EXCLUSIVE" {
                "reads and writes"
            } else {
                "writes"
            };
            sink.push(
                c::report(ctx, RuleId::MG100, fa, st)
                    .by_size(fa, &[table])
                    .var("clause", clause)
                    .var("table", c::describe(fa, table))
                    .var("blocks", blocks),
            );
        }
    }
}
