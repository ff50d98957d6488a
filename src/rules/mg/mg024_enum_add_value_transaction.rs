//! MG024: ALTER TYPE … ADD VALUE inside a transaction before PG 12, or the
//! new value used later in the same transaction (it is unusable until COMMIT).
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Op;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let (Some(tx), Some(Op::AddEnumValue { type_name, value })) = (st.tx, &st.op) else {
                continue;
            };
            if !fa.ctx.version.at_least(12, 0, 0) {
                sink.push(
                    c::report(ctx, RuleId::MG024, fa, st)
                        .variant("old")
                        .var("type", type_name.display())
                        .var("value", value)
                        .var("version", fa.ctx.version),
                );
                continue;
            }
            let quoted = format!("'{value}'");
            let user = fa.stmts[st.index..]
                .iter()
                .take_while(|s| s.tx == Some(tx))
                .find(|s| c::text(ctx, fa, s).contains(&quoted));
            if let Some(u) = user {
                let line = ctx.ws.files[fa.file].line_col(u.span.start).line;
                sink.push(
                    c::report(ctx, RuleId::MG024, fa, st)
                        .var("type", type_name.display())
                        .var("value", value)
                        .var("line", line)
                        .related(
                            fa.file,
                            c::head(ctx, fa, u),
                            format!("'{value}' is used here before COMMIT"),
                        ),
                );
            }
        }
    }
}
