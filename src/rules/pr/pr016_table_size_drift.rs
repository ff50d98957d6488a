//! PR016: a table the server holds as large that the contract declares as
//! small (or, on the hot path, does not size at all).
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::units::{parse_rows, thousands};
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Where a table is named: its `table_rows` entry, else its `hot_tables` item.
pub fn table_field(c: &Contract, table: &str) -> (String, &'static str) {
    if let Some(rows) = c.get("/spec/migrations/table_rows")
        && rows.entries().iter().any(|(k, _)| k.name == table)
    {
        return (
            format!("/spec/migrations/table_rows/{table}"),
            "migrations.table_rows",
        );
    }
    let i = c
        .get("/spec/migrations/hot_tables")
        .and_then(|h| h.as_seq().iter().position(|n| n.as_str() == Some(table)))
        .unwrap_or(0);
    (
        format!("/spec/migrations/hot_tables/{i}"),
        "migrations.hot_tables",
    )
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let large = ctx.settings.sql.large_table_rows;
    for (c, p, f) in databases(ctx) {
        for t in &f.tables {
            let Some(Some(observed)) = t.rows else {
                continue;
            };
            if observed <= large {
                continue;
            }
            let declared = c
                .get("/spec/migrations/table_rows")
                .and_then(|rows| {
                    rows.entries()
                        .iter()
                        .find(|(k, _)| k.name.eq_ignore_ascii_case(&t.name))
                        .map(|(_, v)| v)
                })
                .and_then(Node::scalar_text);
            let (pointer, _) = table_field(c, &t.name);
            let base = c
                .report(RuleId::PR016, &pointer)
                .var("table", &t.name)
                .var(
                    "observed",
                    thousands(observed.try_into().unwrap_or(i128::MAX)),
                )
                .var("target", &p.shown)
                .var("large", thousands(large.try_into().unwrap_or(i128::MAX)));
            match declared {
                Some(text) => {
                    if parse_rows(&text).is_ok_and(|d| d <= large) {
                        sink.push(base.var("declared", text));
                    }
                }
                None => sink.push(base.variant("undeclared")),
            }
        }
    }
}
