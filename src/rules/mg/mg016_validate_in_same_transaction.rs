//! MG016: VALIDATE CONSTRAINT in the same transaction as its NOT VALID add.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let Some(tx) = st.tx else { continue };
            for e in st.effects.iter().filter(|e| e.key == "validate_constraint") {
                let added = fa.stmts[..st.index - 1].iter().find(|s| {
                    s.tx == Some(tx)
                        && s.effects.iter().any(|a| {
                            a.key.ends_with("_not_valid")
                                && a.detail == e.detail
                                && a.table == e.table
                        })
                });
                let Some(added) = added else { continue };
                let line = ctx.ws.files[fa.file].line_col(added.span.start).line;
                sink.push(
                    c::report(ctx, RuleId::MG016, fa, st)
                        .var("constraint", &e.detail)
                        .var("line", line)
                        .related(
                            fa.file,
                            c::head(ctx, fa, added),
                            format!("the NOT VALID add of {}", e.detail),
                        ),
                );
            }
        }
    }
}
