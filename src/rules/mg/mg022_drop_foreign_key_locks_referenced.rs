//! MG022: dropping a foreign key takes ACCESS EXCLUSIVE on the referenced
//! table too (its FK triggers are dropped).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Name;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "drop_fk") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let mut tables: Vec<&Name> = vec![t];
                tables.extend(e.other.iter());
                let referenced = e.other.first().map_or_else(
                    || "the table it references".to_string(),
                    |r| c::describe(fa, r),
                );
                sink.push(
                    c::report(ctx, RuleId::MG022, fa, st)
                        .by_size(fa, &tables)
                        .var("constraint", &e.detail)
                        .var("table", c::describe(fa, t))
                        .var("referenced", referenced),
                );
            }
        }
    }
}
