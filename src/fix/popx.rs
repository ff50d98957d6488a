//! popx (ory's migrations): `<version>_<name>[.<dialect>][.autocommit].up.sql`
//! with a `.down.sql` beside each; a file without a dialect runs on every
//! database the project supports.
use std::path::Path;

const POPX_DIALECTS: &[&str] = &["postgres", "cockroach", "mysql", "sqlite3", "sqlite"];

/// A popx file name with a dialect (`….postgres.up.sql`).
pub(crate) fn popx_has_dialect(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.split('.').skip(1).any(|p| POPX_DIALECTS.contains(&p)))
}

/// popx: `<version>_<name>[.<dialect>][.autocommit].up.sql`, the dialect
/// of the flagged file kept; `.autocommit` runs it outside a transaction.
pub(crate) fn popx_name(name: &str, next: &str, desc: &str, no_tx: bool) -> Option<String> {
    let stem = name.strip_suffix(".up.sql")?;
    let dialect = stem
        .rsplit('.')
        .find(|p| {
            matches!(
                *p,
                "postgres" | "cockroach" | "mysql" | "sqlite3" | "sqlite"
            )
        })
        .filter(|_| stem.contains('.'));
    let mut out = format!("{next}_{desc}");
    if let Some(d) = dialect {
        out.push('.');
        out.push_str(d);
    }
    if no_tx {
        out.push_str(".autocommit");
    }
    out.push_str(".up.sql");
    Some(out)
}
