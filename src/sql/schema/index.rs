//! The model's reverse maps: a table's indexes, and the tables that may
//! hold a foreign key to a table. Without them every `DROP COLUMN`,
//! `ALTER COLUMN … TYPE`, rename and drop scanned every index or every
//! table of the history: quadratic in the length of a long history
//! (issue 21: 33% of a 20,000-statement run).
use super::Model;
use crate::sql::ops::Name;
use std::collections::{BTreeSet, HashSet};

impl Model {
    /// Records index `name` (a stored name) of `table` over `cols`; an
    /// index of that name elsewhere is replaced, as `CREATE INDEX` after a
    /// drop the history did not see would.
    pub(super) fn set_index(&mut self, name: String, table: &Name, cols: Vec<String>) {
        if let Some(old) = self.indexes.insert(name.clone(), table.name.clone()) {
            self.unlink_index(&old, &name);
        }
        self.by_table
            .entry(table.name.clone())
            .or_default()
            .insert(name.clone());
        self.index_schema.insert(name.clone(), table.schema.clone());
        self.index_columns.insert(name, cols);
    }

    fn unlink_index(&mut self, table: &str, name: &str) {
        if let Some(set) = self.by_table.get_mut(table) {
            set.remove(name);
            if set.is_empty() {
                self.by_table.remove(table);
            }
        }
    }

    pub(super) fn forget_index(&mut self, i: &str) {
        self.constraint_indexes.remove(i);
        if let Some(t) = self.indexes.remove(i) {
            self.unlink_index(&t, i);
        }
        self.index_schema.remove(i);
        self.index_columns.remove(i);
    }

    /// `ALTER INDEX from RENAME TO to` (stored names).
    pub(super) fn rename_index(&mut self, from: &str, to: String) {
        if let Some(t) = self.indexes.remove(from) {
            self.unlink_index(&t, from);
            if let Some(old) = self.indexes.insert(to.clone(), t.clone()) {
                self.unlink_index(&old, &to);
            }
            self.by_table.entry(t).or_default().insert(to.clone());
        }
        if let Some(s) = self.index_schema.remove(from) {
            self.index_schema.insert(to.clone(), s);
        }
        if self.constraint_indexes.remove(from) {
            self.constraint_indexes.insert(to.clone());
        }
        if let Some(c) = self.index_columns.remove(from) {
            self.index_columns.insert(to, c);
        }
    }

    /// A table's indexes follow it to its new name.
    pub(super) fn rename_table_indexes(&mut self, from: &str, to: &str) {
        let Some(set) = self.by_table.remove(from) else {
            return;
        };
        for i in &set {
            if let Some(t) = self.indexes.get_mut(i) {
                *t = to.to_string();
            }
        }
        self.by_table.entry(to.to_string()).or_default().extend(set);
    }

    /// The indexes of `table` the history created, by stored name (sorted).
    pub fn table_indexes(&self, table: &str) -> Vec<String> {
        self.by_table
            .get(table)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The indexes of `table` that cover `column`, by stored name (sorted).
    pub fn column_indexes(&self, table: &Name, column: &str) -> Vec<String> {
        self.table_index_set(&table.name)
            .filter(|i| {
                self.index_columns
                    .get(*i)
                    .is_some_and(|cols| cols.iter().any(|c| c == column))
            })
            .cloned()
            .collect()
    }

    pub(super) fn table_index_set<'a>(&'a self, table: &str) -> impl Iterator<Item = &'a String> {
        self.by_table.get(table).into_iter().flatten()
    }

    /// `from` got a foreign key to `to`. The set only grows (a dropped key
    /// leaves its entry): readers check the table itself, so a stale entry
    /// costs a lookup and a missing one would lose a key.
    pub(super) fn note_fk(&mut self, from: &str, to: &str) {
        if let Some(set) = self.fk_from.get_mut(to) {
            if !set.contains(from) {
                set.insert(from.to_string());
            }
        } else {
            self.fk_from
                .insert(to.to_string(), HashSet::from([from.to_string()]));
        }
    }

    /// Every table `table`'s keys and referencing columns point at, noted.
    pub(super) fn note_fks_of(&mut self, table: &str) {
        let Some(tb) = self.tables.get(table) else {
            return;
        };
        let refs: BTreeSet<String> = tb
            .constraints
            .values()
            .filter_map(|c| c.references.clone())
            .chain(
                tb.columns
                    .values()
                    .filter_map(|c| c.references.as_ref().map(|r| r.name.clone())),
            )
            .collect();
        for r in refs {
            self.note_fk(table, &r);
        }
    }

    /// The tables that may hold a foreign key to `table` (a superset).
    pub(crate) fn fk_candidates(&self, table: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .fk_from
            .get(table)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::sql::Dialect;
    use crate::sql::analysis::analyze_file;
    use crate::sql::ops::Name;
    use crate::sql::schema::Model;
    use crate::sql::verify::file_ctx;

    /// What the reverse maps answer, computed by scanning the whole model
    /// as before they existed.
    fn check(m: &Model, after: &str) {
        let mut tables: Vec<&String> = m.tables.keys().chain(m.by_table.keys()).collect();
        tables.sort();
        tables.dedup();
        for t in tables {
            let mut want: Vec<String> = m
                .indexes
                .iter()
                .filter(|(_, x)| *x == t)
                .map(|(i, _)| i.clone())
                .collect();
            want.sort();
            assert_eq!(m.table_indexes(t), want, "indexes of {t} after {after}");
            let mut want: Vec<String> = m
                .tables
                .iter()
                .filter(|(_, tb)| {
                    tb.constraints
                        .values()
                        .any(|c| c.references.as_deref() == Some(t.as_str()))
                        || tb
                            .columns
                            .values()
                            .any(|c| c.references.as_ref().is_some_and(|r| &r.name == t))
                })
                .map(|(n, _)| n.clone())
                .collect();
            want.sort();
            assert_eq!(
                m.referencing(&Name::new(t.as_str())),
                want,
                "keys to {t} after {after}"
            );
        }
        assert!(m.indexes.len() == m.by_table.values().map(|s| s.len()).sum::<usize>());
    }

    #[test]
    fn reverse_maps_agree_with_a_full_scan_over_a_random_history() {
        let mut m = Model::default();
        let ctx = file_ctx(Dialect::Postgres, crate::sql::Version(15, 0, 0));
        // A small LCG: the same history on every run, names drawn from
        // small pools so that renames, drops and re-creations collide.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut pick = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        for _ in 0..600 {
            let (t, u, i) = (pick(5), pick(5), pick(6));
            let sql = match pick(11) {
                0 => format!(
                    "CREATE TABLE t{t} (id int PRIMARY KEY, a int REFERENCES t{u}, b int UNIQUE)"
                ),
                1 => format!("CREATE INDEX i{i} ON t{t} (a, b)"),
                2 => format!("DROP INDEX i{i}"),
                3 => format!("ALTER TABLE t{t} RENAME TO t{u}"),
                4 => format!("DROP TABLE t{t} CASCADE"),
                5 => format!("ALTER TABLE t{t} ADD COLUMN c{i} int REFERENCES t{u}"),
                6 => format!("ALTER TABLE t{t} DROP COLUMN a"),
                7 => format!("ALTER TABLE t{t} RENAME COLUMN b TO a"),
                8 => format!("ALTER INDEX i{i} RENAME TO i{}", pick(6)),
                9 => format!(
                    "ALTER TABLE t{t} ADD CONSTRAINT k{i} FOREIGN KEY (b) REFERENCES t{u} (id)"
                ),
                _ => format!("ALTER TABLE t{t} DROP CONSTRAINT k{i}"),
            };
            let fa = analyze_file(&format!("{sql};\n"), 0, ctx.clone(), &mut m);
            assert!(fa.stmts[0].op.is_some(), "not classified: {sql}");
            check(&m, &sql);
        }
        assert!(!m.tables.is_empty() && !m.indexes.is_empty());
    }
}
