//! What undoes, and what verifies, a statement a fix writes into a
//! follow-up migration, for tools whose follow-up is a unit with its own
//! revert and verify scripts (sqitch). Read off the statement's shape: the
//! fixes write a handful of them (`sql`, `sql_steps`). A statement of
//! another shape has no undo here, and the fix then does not write such a
//! unit (it places the work another way, or not at all).
use regex::Regex;
use std::sync::LazyLock;

/// An identifier as written: double-quoted or bare, optionally qualified.
const NAME: &str = r#"((?:"(?:[^"]|"")*"|[^\s".(]+)(?:\.(?:"(?:[^"]|"")*"|[^\s".(]+))?)"#;

static CREATE_INDEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+{NAME}\s+ON\s+(?:ONLY\s+)?{NAME}"
    ))
    .unwrap()
});
static ALTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?{NAME}\s+(.*)$"
    ))
    .unwrap()
});
static VALIDATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?is)^VALIDATE\s+CONSTRAINT\s+{NAME}\s*$")).unwrap());
static SET_NOT_NULL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^ALTER\s+(?:COLUMN\s+)?{NAME}\s+SET\s+NOT\s+NULL\s*$"
    ))
    .unwrap()
});
static USING_INDEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^ADD\s+CONSTRAINT\s+{NAME}\s+UNIQUE\s+USING\s+INDEX\s+\S+\s*$"
    ))
    .unwrap()
});
static DROP_CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^DROP\s+CONSTRAINT\s+(?:IF\s+EXISTS\s+)?{NAME}\s*$"
    ))
    .unwrap()
});

/// What undoes one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undo {
    /// The statement changes nothing a revert could take back (a VALIDATE
    /// only checks the rows): the text says why.
    Nothing(&'static str),
    /// The statement that takes it back, tolerant of it being gone
    /// already (the flagged change's own revert may take it back too).
    Sql(String),
}

impl Undo {
    /// Whether the undo must run outside a transaction.
    pub fn no_tx(&self) -> bool {
        matches!(self, Undo::Sql(s) if s.to_ascii_uppercase().contains("CONCURRENTLY"))
    }
}

/// The undo of `stmt`, when it has one of the shapes the fixes write.
pub fn undo(stmt: &str) -> Option<Undo> {
    if let Some(c) = CREATE_INDEX.captures(stmt) {
        let index = qualified_like(&c[1], &c[2]);
        return Some(Undo::Sql(format!(
            "DROP INDEX CONCURRENTLY IF EXISTS {index}"
        )));
    }
    let c = ALTER.captures(stmt)?;
    let (table, action) = (&c[1], &c[2]);
    if VALIDATE.is_match(action) {
        return Some(Undo::Nothing("VALIDATE CONSTRAINT only checked the rows"));
    }
    if let Some(a) = SET_NOT_NULL.captures(action) {
        return Some(Undo::Sql(format!(
            "ALTER TABLE {table} ALTER COLUMN {} DROP NOT NULL",
            &a[1]
        )));
    }
    if let Some(a) = USING_INDEX.captures(action) {
        // Dropping the constraint drops the index it took over.
        return Some(Undo::Sql(format!(
            "ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {}",
            &a[1]
        )));
    }
    None
}

/// A query that fails (division by zero) unless `stmt` took effect.
pub fn check(stmt: &str) -> Option<String> {
    if let Some(c) = CREATE_INDEX.captures(stmt) {
        return Some(format!(
            "SELECT 1/COUNT(*) FROM pg_catalog.pg_indexes WHERE indexname = {}",
            literal(last_part(&c[1]))
        ));
    }
    let c = ALTER.captures(stmt)?;
    let (table, action) = (&c[1], &c[2]);
    if let Some(a) = VALIDATE.captures(action) {
        return Some(format!(
            // No constraint of that name left unvalidated: a later change
            // may drop it (the CHECK of SET NOT NULL), and `sqitch verify`
            // checks every change against the schema as it is now.
            "SELECT 1/(COUNT(*) = 0)::int FROM pg_catalog.pg_constraint WHERE conname = {} AND NOT convalidated",
            literal(last_part(&a[1]))
        ));
    }
    if let Some(a) = SET_NOT_NULL.captures(action) {
        return Some(format!(
            "SELECT 1/COUNT(*) FROM pg_catalog.pg_attribute WHERE attrelid = {}::regclass AND attname = {} AND attnotnull",
            quote(table),
            literal(&a[1])
        ));
    }
    if let Some(a) = USING_INDEX.captures(action) {
        return Some(format!(
            "SELECT 1/COUNT(*) FROM pg_catalog.pg_constraint WHERE conname = {} AND conrelid = {}::regclass",
            literal(&a[1]),
            quote(table)
        ));
    }
    if let Some(a) = DROP_CONSTRAINT.captures(action) {
        return Some(format!(
            "SELECT 1/(COUNT(*) = 0)::int FROM pg_catalog.pg_constraint WHERE conname = {} AND conrelid = {}::regclass",
            literal(&a[1]),
            quote(table)
        ));
    }
    None
}

/// The index name qualified with the table's schema: an index lives in the
/// schema of its table, and a bare name in DROP INDEX searches the path.
fn qualified_like(index: &str, table: &str) -> String {
    match split_qualified(table) {
        Some((schema, _)) if split_qualified(index).is_none() => format!("{schema}.{index}"),
        _ => index.to_string(),
    }
}

/// `schema.name` split at the dot outside quotes.
fn split_qualified(name: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    for (i, ch) in name.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '.' if !quoted => return Some((&name[..i], &name[i + 1..])),
            _ => {}
        }
    }
    None
}

fn last_part(name: &str) -> &str {
    split_qualified(name).map_or(name, |(_, n)| n)
}

/// The name as the catalog stores it: a quoted one as written, a bare one
/// folded to lower case.
fn folded(name: &str) -> String {
    match name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => name.to_ascii_lowercase(),
    }
}

/// The catalog name of an identifier as a string literal.
fn literal(name: &str) -> String {
    format!("'{}'", folded(name).replace('\'', "''"))
}

/// A (possibly quoted, qualified) table name as a literal `regclass` reads.
fn quote(table: &str) -> String {
    format!("'{}'", table.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_the_fixes_write_have_an_undo_and_a_check() {
        let idx = "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS \"Idx\" ON app.orders (id)";
        assert_eq!(
            undo(idx),
            Some(Undo::Sql(
                "DROP INDEX CONCURRENTLY IF EXISTS app.\"Idx\"".into()
            ))
        );
        assert!(undo(idx).unwrap().no_tx());
        assert_eq!(
            check(idx).unwrap(),
            "SELECT 1/COUNT(*) FROM pg_catalog.pg_indexes WHERE indexname = 'Idx'"
        );
        let nn = "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL";
        assert_eq!(
            undo(nn),
            Some(Undo::Sql(
                "ALTER TABLE orders ALTER COLUMN customer_id DROP NOT NULL".into()
            ))
        );
        let v = "ALTER TABLE orders VALIDATE CONSTRAINT orders_fk";
        assert!(matches!(undo(v), Some(Undo::Nothing(_))));
        assert!(
            check(v)
                .unwrap()
                .contains("conname = 'orders_fk' AND NOT convalidated")
        );
        let attach = "ALTER TABLE orders ADD CONSTRAINT k UNIQUE USING INDEX k";
        assert_eq!(
            undo(attach),
            Some(Undo::Sql(
                "ALTER TABLE orders DROP CONSTRAINT IF EXISTS k".into()
            ))
        );
        let drop = "ALTER TABLE orders DROP CONSTRAINT orders_c_not_null";
        assert_eq!(
            undo(drop),
            None,
            "the CHECK it dropped is the caller's to say"
        );
        assert!(check(drop).unwrap().contains("(COUNT(*) = 0)"));
        assert_eq!(undo("DROP INDEX CONCURRENTLY IF EXISTS i"), None);
    }
}
