//! MG005: DETACH PARTITION without CONCURRENTLY (PG 14+).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx).filter(|f| f.ctx.version.at_least(14, 0, 0)) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "detach_partition") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let sql = c::text(ctx, fa, st);
                sink.push(
                    c::report(ctx, RuleId::MG005, fa, st)
                        .by_size(fa, &[t])
                        .var("parent", c::describe(fa, t))
                        .var("partition", &e.detail)
                        .var("locks", c::locks_text(fa, st))
                        .var("fix", format!("{} CONCURRENTLY;", sql.trim_end())),
                );
            }
        }
    }
}
