//! MG001: CREATE INDEX without CONCURRENTLY on a table that already exists.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "create_index") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let fix = c::insert_after(c::text(ctx, fa, st), "index", "CONCURRENTLY");
                sink.push(
                    c::report(ctx, RuleId::MG001, fa, st)
                        .severity(c::heat_severity(fa, &[t]))
                        .var("table", c::describe(fa, t))
                        .var("lock", c::pg_lock(e).as_str())
                        .var("blocks", c::pg_lock(e).blocks())
                        .var("fix", fix),
                );
            }
        }
    }
}
