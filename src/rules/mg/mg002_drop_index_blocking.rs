//! MG002: DROP INDEX without CONCURRENTLY.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Name;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in st.effects.iter().filter(|e| e.key == "drop_index") {
                if fa.is_new(&Name::new(e.detail.clone()), st) || !c::existing(fa, st, e) {
                    continue;
                }
                let tables: Vec<&Name> = e.table.iter().collect();
                let table = e
                    .table
                    .as_ref()
                    .map_or_else(|| "its table".to_string(), |t| c::describe(fa, t));
                sink.push(
                    c::report(ctx, RuleId::MG002, fa, st)
                        .by_size(fa, &tables)
                        .var("index", &e.detail)
                        .var("table", table)
                        .var(
                            "fix",
                            c::insert_after(c::text(ctx, fa, st), "index", "CONCURRENTLY"),
                        ),
                );
            }
        }
    }
}
