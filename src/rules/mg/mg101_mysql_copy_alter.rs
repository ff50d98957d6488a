//! MG101: an ALTER the server can only run as a table copy (ALGORITHM=COPY),
//! blocking writes for the whole copy.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::locks::{self, Algorithm};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        for st in &fa.stmts {
            for e in &st.effects {
                let row = locks::mysql(e.key);
                if row.plan(fa.ctx.dialect, fa.ctx.version).algorithm != Algorithm::Copy {
                    continue;
                }
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let what = if e.detail.is_empty() {
                    row.operation.clone()
                } else {
                    format!("{} ({})", row.operation, e.detail)
                };
                sink.push(
                    c::report(ctx, RuleId::MG101, fa, st)
                        .by_size(fa, &[t])
                        .var("what", what)
                        .var("table", c::describe(fa, t))
                        .var("dialect", fa.ctx.dialect.as_str())
                        .var("version", fa.ctx.version),
                );
            }
        }
    }
}
