//! MG034: a backfill (UPDATE/DELETE/INSERT … SELECT) on an existing table in
//! the same transaction as DDL: the DDL locks are held for the whole backfill.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::Op;

/// Migration tools' own bookkeeping: a one-row update there is no backfill.
const TOOL_TABLES: &[&str] = &[
    "alembic_version",
    "schema_migrations",
    "flyway_schema_history",
    "django_migrations",
    "goose_db_version",
    "ar_internal_metadata",
    "databasechangelog",
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let (
                Some(tx),
                Some(Op::Dml {
                    table, verb, bulk, ..
                }),
            ) = (st.tx, &st.op)
            else {
                continue;
            };
            if fa.is_new(table, st)
                || (*verb == "INSERT" && !bulk)
                || TOOL_TABLES.contains(&table.name.as_str())
            {
                continue;
            }
            let ddl = fa.stmts.iter().find(|s| {
                s.tx == Some(tx)
                    && s.index != st.index
                    && !matches!(s.op, Some(Op::Dml { .. }))
                    && s.locks.iter().any(|(n, _)| !fa.is_new(n, s))
            });
            let Some(ddl) = ddl else { continue };
            let line = ctx.ws.files[fa.file].line_col(ddl.span.start).line;
            sink.push(
                c::report(ctx, RuleId::MG034, fa, st)
                    .by_size(fa, &[table])
                    .var("verb", verb)
                    .var("table", c::describe(fa, table))
                    .var("ddl", &ddl.kind)
                    .var("line", line)
                    .related(
                        fa.file,
                        c::head(ctx, fa, ddl),
                        format!("the {} whose locks the backfill holds", ddl.kind),
                    ),
            );
        }
    }
}
