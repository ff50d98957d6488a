//! MG003: a statement that cannot run inside a transaction block
//! (CONCURRENTLY forms, VACUUM) inside one — it fails at run time.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::locks;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let Some(tx) = st.tx else { continue };
            let Some(e) = st.effects.iter().find(|e| !locks::pg(e.key).in_tx) else {
                continue;
            };
            let why = if tx == 0 {
                fa.tool_tx.clone()
            } else {
                let begin = fa.stmts.iter().rev().find(|s| {
                    s.index < st.index && matches!(s.op, Some(crate::sql::ops::Op::Begin))
                });
                let line = begin.map_or(0, |b| ctx.ws.files[fa.file].line_col(b.span.start).line);
                format!("the transaction opened by BEGIN on line {line}")
            };
            sink.push(
                c::report(ctx, RuleId::MG003, fa, st)
                    .var("what", &locks::pg(e.key).statement)
                    .var("why", why),
            );
        }
    }
}
