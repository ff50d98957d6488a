//! MG001: CREATE INDEX without CONCURRENTLY on a table that already exists.
//! On a partitioned table PostgreSQL refuses CONCURRENTLY, so the fix
//! there is the per-partition build and attach.
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
                .filter(|e| matches!(e.key, "create_index" | "create_index_partitioned"))
            {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let mut tables = vec![t];
                tables.extend(e.other.iter());
                let report = if e.key == "create_index_partitioned" {
                    let index = if e.detail.is_empty() {
                        "the index"
                    } else {
                        &e.detail
                    };
                    c::report(ctx, RuleId::MG001, fa, st)
                        .variant("partitioned")
                        .var("partitions", partitions(&e.other))
                        .help(format!(
                            "PostgreSQL cannot build an index CONCURRENTLY on a partitioned table: create {index} with `ON ONLY {t}` (invalid, no build), then per partition `CREATE INDEX CONCURRENTLY` outside a transaction and `ALTER INDEX {index} ATTACH PARTITION <partition index>`; it turns valid once every partition has one"
                        ))
                } else {
                    let fix = c::insert_after(c::text(ctx, fa, st), "index", "CONCURRENTLY");
                    c::report(ctx, RuleId::MG001, fa, st).var("fix", fix)
                };
                sink.push(
                    report
                        .by_size(fa, &tables)
                        .var("table", c::describe(fa, t))
                        .var("lock", c::pg_lock(e).as_str())
                        .var("blocks", c::pg_lock(e).blocks()),
                );
            }
        }
    }
}

fn partitions(list: &[crate::sql::ops::Name]) -> String {
    if list.is_empty() {
        return "every partition".into();
    }
    list.iter()
        .map(crate::sql::ops::Name::display)
        .collect::<Vec<_>>()
        .join(", ")
}
