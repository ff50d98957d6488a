//! Foreign keys as the lock model follows them: which tables a table's
//! keys point at, which point at it, and through which columns.
use super::ops::{ConstraintKind, Name};
use super::schema::Model;

impl Model {
    /// Tables with a foreign key to `t` (what TRUNCATE … CASCADE reaches).
    /// Tables that `t`'s foreign keys point at (dropping `t` removes the
    /// FK triggers on them, under ACCESS EXCLUSIVE).
    pub fn referenced_by(&self, t: &Name) -> Vec<String> {
        let Some(tb) = self.table(t) else {
            return Vec::new();
        };
        let mut out: Vec<String> = tb
            .constraints
            .values()
            .filter_map(|c| c.references.clone())
            .chain(
                tb.columns
                    .values()
                    .filter_map(|c| c.references.as_ref().map(|r| r.name.clone())),
            )
            .filter(|r| r != &t.name)
            .collect();
        out.sort();
        out.dedup();
        out
    }
    pub fn referencing(&self, t: &Name) -> Vec<String> {
        // The candidates are sorted, so the result is.
        self.fk_candidates(&t.name)
            .into_iter()
            .filter(|n| {
                let Some(tb) = self.tables.get(n) else {
                    return false;
                };
                tb.constraints
                    .values()
                    .any(|c| c.references.as_deref() == Some(t.name.as_str()))
                    || tb
                        .columns
                        .values()
                        .any(|c| c.references.as_ref().is_some_and(|r| r.name == t.name))
            })
            .collect()
    }
    /// Foreign keys `(table, referenced table)` whose columns on `t`
    /// include `col`.
    pub fn fks_on_column(&self, t: &Name, col: &str) -> Vec<String> {
        let Some(tb) = self.table(t) else {
            return Vec::new();
        };
        let mut out: Vec<String> = tb
            .constraints
            .values()
            .filter(|c| c.kind == ConstraintKind::ForeignKey && c.columns.iter().any(|x| x == col))
            .filter_map(|c| c.references.clone())
            .filter(|r| r != &t.name)
            .collect();
        out.sort();
        out.dedup();
        out
    }
    /// Tables whose foreign keys point at column `col` of `t` (an FK
    /// without referenced columns points at the primary key).
    pub fn fks_to_column(&self, t: &Name, col: &str) -> Vec<String> {
        let pk: Vec<String> = self
            .table(t)
            .map(|tb| {
                tb.constraints
                    .values()
                    .filter(|c| c.kind == ConstraintKind::PrimaryKey)
                    .flat_map(|c| c.columns.clone())
                    .chain(
                        tb.columns
                            .values()
                            .filter(|c| c.primary_key)
                            .map(|c| c.name.clone()),
                    )
                    .collect()
            })
            .unwrap_or_default();
        self.fk_candidates(&t.name)
            .into_iter()
            .filter(|n| *n != t.name)
            .filter(|n| {
                let Some(tb) = self.tables.get(n) else {
                    return false;
                };
                tb.constraints.values().any(|c| {
                    c.references.as_deref() == Some(t.name.as_str())
                        && if c.ref_columns.is_empty() {
                            pk.iter().any(|p| p == col)
                        } else {
                            c.ref_columns.iter().any(|r| r == col)
                        }
                })
            })
            .collect()
    }
}
