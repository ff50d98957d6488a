//! Whether a table has a TOAST table, as PostgreSQL 15 decides it at
//! CREATE TABLE (`needs_toast_table`): some column is not PLAIN storage and
//! the widest row it could hold passes `TOAST_TUPLE_THRESHOLD` (2032 bytes
//! on 8 kB pages). A column without a bound (text, bytea, jsonb, numeric
//! without precision, arrays, inet, varchar without a length …) is enough
//! alone; bounded ones (varchar(n), char(n), numeric(p,s), bit(n)) count
//! their maximum (UTF8: 4 bytes a character). The server was asked for
//! each case (`tests/schema_names.rs`, the oracle forms). A rewrite,
//! TRUNCATE, DROP, CLUSTER, VACUUM FULL and REINDEX TABLE lock the TOAST
//! table with the table; so `locks` names it (`toast_name`).
use super::Model;
use crate::sql::ops::{ColumnDef, Name};

/// The name verify and the predictions give a TOAST table: its owner's.
pub fn toast_name(owner: &str) -> String {
    format!("pg_toast of {owner}")
}

/// The name verify and the predictions give a TOAST table's index
/// (`pg_toast.pg_toast_N_index`): its owner's too.
pub fn toast_index_name(owner: &str) -> String {
    format!("index of {}", toast_name(owner))
}

const THRESHOLD: i64 = 2032;

/// What one column adds to the widest row: `Some((align, bytes))`, or
/// `None` when it alone needs a TOAST table; `Err` when the type is not
/// one this model knows (a domain, an enum, an extension's type).
fn width(c: &ColumnDef) -> Result<Option<(i64, i64)>, ()> {
    let t = &c.ty;
    if t.array {
        return Ok(None);
    }
    let arg = t.args.first().copied();
    let fixed = |a: i64, n: i64| Ok(Some((a, n)));
    let varlena = |n: i64| Ok(Some((4, n)));
    match t.base.as_str() {
        "smallint" | "smallserial" => fixed(2, 2),
        "integer" | "serial" | "real" | "date" | "oid" | "xid" => fixed(4, 4),
        "bigint" | "bigserial" | "double" | "time" | "timestamp" | "timestamptz" | "money"
        | "pg_lsn" => fixed(8, 8),
        "timetz" => fixed(8, 12),
        "interval" | "point" => fixed(8, 16),
        "line" | "circle" => fixed(8, 24),
        "box" | "lseg" => fixed(8, 32),
        "uuid" => fixed(1, 16),
        "boolean" | "\"char\"" => fixed(1, 1),
        "macaddr" => fixed(4, 6),
        "macaddr8" => fixed(4, 8),
        "name" => fixed(1, 64),
        // `bpchar` without a length has no bound; `char` alone is char(1).
        "char" if arg.is_none() && t.raw.to_ascii_lowercase().starts_with("bpchar") => Ok(None),
        "char" => varlena(arg.unwrap_or(1) * 4 + 4),
        "varchar" => match arg {
            Some(n) => varlena(n * 4 + 4),
            None => Ok(None),
        },
        "numeric" => match arg {
            Some(p) => varlena(8 + (p + 6) / 4 * 2),
            None => Ok(None),
        },
        "bit" | "varbit" | "bit varying" => match arg {
            Some(n) => varlena(8 + (n + 7) / 8),
            None if t.base == "bit" => varlena(9),
            None => Ok(None),
        },
        "text" | "bytea" | "json" | "jsonb" | "xml" | "inet" | "cidr" | "tsvector" | "tsquery"
        | "citext" | "hstore" | "ltree" | "path" | "polygon" | "jsonpath" => Ok(None),
        _ => Err(()),
    }
}

impl Model {
    /// `Some(true)`: the table has a TOAST table; `Some(false)`: it has
    /// none (a partitioned table, a view, only narrow columns); `None`:
    /// the history does not say (a table it never created, a materialized
    /// view, a column of a type this model does not size).
    pub fn has_toast(&self, n: &Name) -> Option<bool> {
        if self.objects.partitioned.contains(&n.name) {
            return Some(false);
        }
        if let Some(v) = self.objects.views.get(&n.name) {
            return if v.materialized { None } else { Some(false) };
        }
        let t = self.table(n)?;
        if t.columns.is_empty() {
            return None;
        }
        let mut unknown = false;
        let mut len = 0i64;
        // Alignment padding depends on the order: the declared one.
        for c in t.ordered_columns() {
            match width(c) {
                Ok(None) => return Some(true),
                Ok(Some((align, bytes))) => len = (len + align - 1) / align * align + bytes,
                Err(()) => unknown = true,
            }
        }
        if unknown {
            return None;
        }
        let natts = i64::from(t.natts());
        let maxalign = |x: i64| (x + 7) / 8 * 8;
        let tuple = maxalign(23 + (natts + 7) / 8) + maxalign(len);
        // Only a non-PLAIN column can be moved out: all-fixed rows never are.
        let toastable = t.columns.values().any(|c| {
            matches!(
                c.ty.base.as_str(),
                "char" | "varchar" | "numeric" | "bit" | "varbit" | "bit varying"
            )
        });
        Some(toastable && tuple > THRESHOLD)
    }
}
