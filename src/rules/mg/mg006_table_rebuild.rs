//! MG006: VACUUM FULL and CLUSTER rebuild the table under ACCESS EXCLUSIVE.
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
                .filter(|e| e.key == "vacuum_full" || e.key == "cluster")
            {
                if !c::existing(fa, st, e) {
                    continue;
                }
                let tables: Vec<_> = e.table.iter().collect();
                let table = c::table_or(e, "every table it may touch");
                let fix = match &e.table {
                    Some(t) => format!("pg_repack --table={} <database>", t.display()),
                    None => "pg_repack --all <database>".into(),
                };
                sink.push(
                    c::report(ctx, RuleId::MG006, fa, st)
                        .by_size(fa, &tables)
                        .var("what", c::one_line(c::text(ctx, fa, st)))
                        .var("table", table)
                        .var("fix", fix),
                );
            }
        }
    }
}
