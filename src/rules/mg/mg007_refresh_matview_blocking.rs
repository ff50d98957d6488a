//! MG007: REFRESH MATERIALIZED VIEW without CONCURRENTLY blocks its readers.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "refresh_matview") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                sink.push(
                    c::report(ctx, RuleId::MG007, fa, st)
                        .by_size(fa, &[t])
                        .var("view", c::describe(fa, t))
                        .var(
                            "fix",
                            c::insert_after(c::text(ctx, fa, st), "view", "CONCURRENTLY"),
                        ),
                );
            }
        }
    }
}
