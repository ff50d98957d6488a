//! MG019: ADD EXCLUDE builds its index under ACCESS EXCLUSIVE; no online form.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "add_exclude") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                sink.push(
                    c::report(ctx, RuleId::MG019, fa, st)
                        .by_size(fa, &[t])
                        .var("table", c::describe(fa, t)),
                );
            }
        }
    }
}
