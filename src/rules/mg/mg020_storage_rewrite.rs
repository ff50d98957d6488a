//! MG020: SET LOGGED/UNLOGGED, SET TABLESPACE, SET ACCESS METHOD rewrite the table.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st
                .effects
                .iter()
                .filter(|e| matches!(e.key, "set_logged" | "set_tablespace" | "set_access_method"))
            {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                sink.push(
                    c::report(ctx, RuleId::MG020, fa, st)
                        .by_size(fa, &[t])
                        .var("what", &e.detail)
                        .var("table", c::describe(fa, t)),
                );
            }
        }
    }
}
