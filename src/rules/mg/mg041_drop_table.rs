//! MG041: DROP TABLE / SCHEMA / DATABASE of an object that existed before
//! this migration.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Op;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in &c::analysis(ctx).files {
        for st in &fa.stmts {
            let (what, names) = match &st.op {
                Some(Op::DropTable { names, .. }) => (
                    "table",
                    names
                        .iter()
                        .filter(|n| !fa.is_new(n, st))
                        .map(|n| n.display())
                        .collect::<Vec<_>>(),
                ),
                Some(Op::DropSchema { name, database }) => (
                    if *database { "database" } else { "schema" },
                    vec![name.display()],
                ),
                _ => continue,
            };
            if names.is_empty() {
                continue;
            }
            sink.push(
                c::report(ctx, RuleId::MG041, fa, st)
                    .var("what", what)
                    .var("name", names.join(", ")),
            );
        }
    }
}
