//! MG033: several ALTER TABLE statements on one table in one migration, each
//! scanning or rewriting it: one combined ALTER pays that once.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Op;
use std::collections::HashMap;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let mut first: HashMap<String, (usize, &crate::sql::analysis::Stmt)> = HashMap::new();
        for st in &fa.stmts {
            let Some(Op::AlterTable { table, .. }) = &st.op else {
                continue;
            };
            if !(st.scan || st.rewrite) || fa.is_new(table, st) {
                continue;
            }
            let line = ctx.ws.files[fa.file].line_col(st.span.start).line;
            match first.get(&table.name) {
                Some(&(first_line, first_st)) => sink.push(
                    c::report(ctx, RuleId::MG033, fa, st)
                        .var("table", c::describe(fa, table))
                        .var("first", first_line)
                        .related(
                            fa.file,
                            c::head(ctx, fa, first_st),
                            "the first ALTER TABLE that scans or rewrites it",
                        ),
                ),
                None => {
                    first.insert(table.name.clone(), (line, st));
                }
            }
        }
    }
}
