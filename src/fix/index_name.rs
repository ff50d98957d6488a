//! The name PostgreSQL gives an index built without one
//! (`ChooseIndexName`: the table, its columns and `idx`, joined by `_`),
//! written out by the CONCURRENTLY fix: with a name the build can say
//! `IF NOT EXISTS` (a rerun after a failed concurrent build does not add
//! an `_idx1` beside the invalid index it left) and a sqitch change can
//! get a revert and a verify script. Only for the forms whose name is
//! plain: bare lower-case columns, no expression, no INCLUDE, and a name
//! short enough that PostgreSQL does not truncate it. When the name is
//! taken already PostgreSQL would pick `_idx1`; the fix's IF NOT EXISTS
//! keeps the index there instead, and a revert dropping `_idx` by name
//! was wrong in that case already.
use regex::Regex;
use std::sync::LazyLock;

static UNNAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+ON\s+(?:([a-z_][a-z0-9_]*)\.)?([a-z_][a-z0-9_]*)\s+(?:USING\s+[a-z_]+\s*)?\(([^()]*)\)\s*(.*)$",
    )
    .unwrap()
});
static COLUMN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)^([a-z_][a-z0-9_]*)(?:\s+(?:ASC|DESC))?(?:\s+NULLS\s+(?:FIRST|LAST))?$")
        .unwrap()
});
static REST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)^(?:$|WHERE\b|WITH\s*\(|TABLESPACE\b)").unwrap());

/// PostgreSQL's name for the unnamed index `stmt` builds, when plain.
pub fn default_name(stmt: &str) -> Option<String> {
    let c = UNNAMED.captures(stmt.trim())?;
    if !REST.is_match(&c[4]) {
        return None;
    }
    // Unquoted identifiers: PostgreSQL folds them to lower case.
    let mut parts = vec![c[2].to_lowercase()];
    for col in c[3].split(',') {
        let m = COLUMN.captures(col.trim())?;
        parts.push(m[1].to_lowercase());
    }
    parts.push("idx".into());
    let name = parts.join("_");
    // NAMEDATALEN - 1: a longer one PostgreSQL truncates by its own rule.
    (name.len() <= 63).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::default_name;

    #[test]
    fn plain_forms_only() {
        assert_eq!(
            default_name("CREATE INDEX ON orders (customer_id, created_at DESC)").as_deref(),
            Some("orders_customer_id_created_at_idx")
        );
        assert_eq!(
            default_name("CREATE UNIQUE INDEX ON app.orders USING btree (k) WHERE k > 0")
                .as_deref(),
            Some("orders_k_idx")
        );
        assert_eq!(
            default_name("create index on Orders (Customer_ID)").as_deref(),
            Some("orders_customer_id_idx")
        );
        assert_eq!(default_name("CREATE INDEX ON orders (lower(e))"), None);
        assert_eq!(default_name("CREATE INDEX ON orders (a) INCLUDE (b)"), None);
        assert_eq!(default_name("CREATE INDEX ON \"Orders\" (a)"), None);
        assert_eq!(
            default_name(&format!("CREATE INDEX ON t ({})", "c".repeat(60))),
            None
        );
    }
}
