//! MG004: REINDEX without CONCURRENTLY where the server has it (PG 12+).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Op;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx).filter(|f| f.ctx.version.at_least(12, 0, 0)) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "reindex") {
                if !c::existing(fa, st, e) {
                    continue;
                }
                let word = match &st.op {
                    Some(Op::Reindex {
                        table_level: false, ..
                    }) => "index",
                    _ => "table",
                };
                let tables: Vec<_> = e.table.iter().collect();
                sink.push(
                    c::report(ctx, RuleId::MG004, fa, st)
                        .by_size(fa, &tables)
                        .var("target", &e.detail)
                        .var("locks", c::locks_text(fa, st))
                        .var(
                            "fix",
                            c::insert_after(c::text(ctx, fa, st), word, "CONCURRENTLY"),
                        ),
                );
            }
        }
    }
}
