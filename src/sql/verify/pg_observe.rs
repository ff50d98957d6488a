//! What a PostgreSQL statement did, read from the catalog: the user
//! relations and their relfilenodes before and after (a changed one is a
//! rewrite or a rebuilt index), and the strongest lock mode seen on each.
//! Shared by the in-transaction replay (`pg`) and the watcher (`pg_watch`).
use super::pg::err;
use super::{Observed, VerifyError};
use crate::sql::locks::PgMode;
use postgres::Client;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug)]
pub struct Rel {
    pub name: String,
    pub kind: String,
    pub filenode: u32,
}

/// User relations (not catalogs) by oid, with the TOAST tables of user
/// tables and their indexes under their owner's name (`toast_name`,
/// `toast_index_name`; kind `t` and `ti`); temporary tables' TOAST tables
/// are left out.
pub type Snapshot = HashMap<u32, Rel>;

pub fn snapshot(c: &mut Client) -> Result<Snapshot, VerifyError> {
    let rows = c
        .query(
            "SELECT c.oid, \
                    COALESCE('pg_toast of ' || o.relname::text, \
                             'index of pg_toast of ' || oi.relname::text, c.relname::text), \
                    CASE WHEN oi.oid IS NOT NULL THEN 'ti' ELSE c.relkind::text END, \
                    c.relfilenode \
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             LEFT JOIN pg_class o ON c.relkind = 't' AND o.reltoastrelid = c.oid \
             LEFT JOIN pg_index x ON c.relkind = 'i' AND n.nspname = 'pg_toast' \
                  AND x.indexrelid = c.oid \
             LEFT JOIN pg_class oi ON oi.reltoastrelid = x.indrelid \
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') \
               AND n.nspname NOT LIKE 'pg\\_temp%' \
               AND (n.nspname NOT LIKE 'pg\\_toast%' \
                    OR n.nspname = 'pg_toast' \
                       AND COALESCE(o.relnamespace, oi.relnamespace) NOT IN \
                           (SELECT oid FROM pg_namespace \
                            WHERE nspname IN ('pg_catalog', 'information_schema')))",
            &[],
        )
        .map_err(err)?;
    Ok(rows
        .iter()
        .map(|r| {
            (
                r.get::<_, u32>(0),
                Rel {
                    name: r.get(1),
                    kind: r.get(2),
                    filenode: r.get(3),
                },
            )
        })
        .collect())
}

/// A TOAST table or a TOAST table's index: locked with its owner.
pub fn is_toast(kind: &str) -> bool {
    matches!(kind, "t" | "ti")
}

/// Tables whose locks the lock table speaks about.
pub fn is_table(kind: &str) -> bool {
    matches!(kind, "r" | "p" | "m")
}

/// `AccessExclusiveLock` → `ACCESS EXCLUSIVE`.
pub fn mode_name(pg_locks_mode: &str) -> PgMode {
    PgMode::parse(pg_locks_mode.strip_suffix("Lock").unwrap_or(pg_locks_mode))
}

/// Views, sequences and indexes: their locks are observed where the
/// prediction names them (`DROP VIEW`, `ALTER SEQUENCE`, `DROP INDEX`, a
/// rewrite's rebuilt indexes); elsewhere a lock on one is a query's read,
/// a `nextval()` or an index a planner opened, which the lock table does
/// not speak of.
pub fn is_named_other(kind: &str) -> bool {
    matches!(kind, "v" | "S" | "i" | "I")
}

/// What changed between two snapshots, with the modes seen on each oid;
/// `named`: the relations the prediction names.
pub fn diff(
    before: &Snapshot,
    after: &Snapshot,
    seen: &[(u32, String)],
    named: &[String],
) -> Observed {
    diff_in(before, after, seen, named, false)
}

/// As `diff`; `strict`: an unnamed SHARE-or-stronger index lock counts
/// (`PgVerifier::strict_indexes`).
pub fn diff_in(
    before: &Snapshot,
    after: &Snapshot,
    seen: &[(u32, String)],
    named: &[String],
    strict: bool,
) -> Observed {
    let mut strongest: BTreeMap<String, PgMode> = BTreeMap::new();
    // A SHARE or stronger lock on an index (a query or a row change opens
    // every index with ACCESS SHARE or ROW EXCLUSIVE) is the statement's
    // own: in a strict diff it is observed whether or not the prediction
    // names the index, so a rewrite, REINDEX, DROP or DROP COLUMN that
    // forgets one disagrees. SHARE UPDATE EXCLUSIVE on
    // an index (CLUSTER ON, USING INDEX, RENAME, the CONCURRENTLY forms)
    // is left to the rows that name it.
    // A TOAST table and its index are locked with their table (a rewrite,
    // TRUNCATE, DROP, a long value written): always observed, like a table.
    let observed = |r: &Rel, m: PgMode| {
        is_table(&r.kind)
            || is_toast(&r.kind)
            || is_named_other(&r.kind) && named.contains(&r.name)
            || r.kind == "i" && m >= PgMode::Share && strict
    };
    for (oid, mode) in seen {
        let m = mode_name(mode);
        if let Some(rel) = before.get(oid).filter(|r| observed(r, m)) {
            let e = strongest.entry(rel.name.clone()).or_insert(m);
            *e = (*e).max(m);
        }
    }
    let mut o = Observed {
        locks: strongest
            .into_iter()
            .map(|(relation, m)| super::LockObs {
                relation,
                mode: m.as_str().to_string(),
            })
            .collect(),
        rewrite: Some(false),
        secondary_observed: true,
        toast_observed: true,
        toast_index_observed: true,
        ..Observed::default()
    };
    for (oid, b) in before {
        match after.get(oid) {
            None if is_toast(&b.kind) && after.values().any(|a| a.name == b.name) => {}
            None => o.dropped.push(b.name.clone()),
            Some(a) if a.filenode != b.filenode && b.filenode != 0 => {
                if b.kind == "i" {
                    o.indexes_rebuilt.push(b.name.clone());
                } else if is_table(&b.kind) {
                    o.rewrite = Some(true);
                    o.rewritten.push(b.name.clone());
                }
            }
            Some(_) => {}
        }
        if b.kind == "p" && named.contains(&b.name) {
            o.partitioned.push(b.name.clone());
        }
    }
    // A rewrite swaps in a new TOAST table and index (new oids under the
    // same owner): the old ones' successors, not relations nobody held.
    let replaced = |a: &Rel| is_toast(&a.kind) && before.values().any(|b| b.name == a.name);
    for (oid, a) in after {
        if !before.contains_key(oid) && !replaced(a) {
            o.created.push(a.name.clone());
        }
    }
    o.dropped.sort();
    o.created.sort();
    o.indexes_rebuilt.sort();
    o.rewritten.sort();
    o.partitioned.sort();
    o
}
