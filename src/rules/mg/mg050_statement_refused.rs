//! MG050: a statement the server refuses (the lock table's `Refused` rows),
//! judged on the schema so far: the migration fails there.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::locks;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let Some(e) = st.effects.iter().find(|e| locks::pg(e.key).refused) else {
                continue;
            };
            let table = e
                .table
                .as_ref()
                .map(|t| c::describe(fa, t))
                .unwrap_or_default();
            let report = c::report(ctx, RuleId::MG050, fa, st).var("table", &table);
            let report = match e.key {
                "create_index_concurrently_partitioned" => report.variant("partitioned").help(format!(
                    "create the index `ON ONLY {table}` (no build), then per partition `CREATE INDEX CONCURRENTLY` outside a transaction and `ALTER INDEX … ATTACH PARTITION` it; the parent's index turns valid once every partition has one"
                )),
                "truncate_referenced" => report
                    .variant("truncate")
                    .var("referencing", &e.detail)
                    .help(format!(
                        "name them in the same statement (`TRUNCATE {table}, {}`) or add CASCADE, which empties them too; or delete in batches",
                        e.detail
                    )),
                _ => report
                    .var("what", &locks::pg(e.key).statement)
                    .var("why", st.refused().unwrap_or_default()),
            };
            sink.push(report);
        }
    }
}
