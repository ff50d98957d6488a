//! MG015: ADD FOREIGN KEY without NOT VALID: SHARE ROW EXCLUSIVE on both
//! tables while every row is checked.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Name;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "add_fk") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let mut tables: Vec<&Name> = vec![t];
                tables.extend(e.other.iter());
                let referenced = e.other.first().map_or_else(
                    || "the referenced table".to_string(),
                    |r| c::describe(fa, r),
                );
                let name = if e.detail.is_empty() {
                    "<name>"
                } else {
                    &e.detail
                };
                let sql = c::text(ctx, fa, st).trim_end();
                sink.push(
                    c::report(ctx, RuleId::MG015, fa, st)
                        .by_size(fa, &tables)
                        .var("table", c::describe(fa, t))
                        .var("referenced", referenced)
                        .var("locks", c::locks_text(fa, st))
                        .var(
                            "fix",
                            format!("{sql} NOT VALID; -- then, separately: ALTER TABLE {t} VALIDATE CONSTRAINT {name};"),
                        ),
                );
            }
        }
    }
}
