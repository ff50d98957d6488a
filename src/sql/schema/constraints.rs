//! Declared constraints as the model keeps them: the name PostgreSQL gives
//! an unnamed one, the index a PRIMARY KEY / UNIQUE / EXCLUDE makes, the
//! foreign key of a column-level REFERENCES.
use super::{ConInfo, Model, Table, key, stored_name};
use crate::sql::ops::{ColumnDef, Constraint, ConstraintKind, Name};

impl Model {
    /// The index behind a constraint, under the name PostgreSQL gives it
    /// when the constraint has none (`t_pkey`, `t_a_b_key`, `t_a_excl`);
    /// a longer default than 63 bytes is truncated by rules not followed
    /// here, so such an index stays unnamed.
    fn constraint_index(
        &mut self,
        t: &Name,
        name: Option<&str>,
        kind: ConstraintKind,
        cols: &[String],
    ) {
        let name = match (name, kind) {
            (Some(n), _) => stored_name(n),
            (None, ConstraintKind::PrimaryKey) => format!("{}_pkey", t.name),
            (None, ConstraintKind::Unique | ConstraintKind::Index) if !cols.is_empty() => {
                format!("{}_{}_key", t.name, cols.join("_"))
            }
            (None, ConstraintKind::Exclude) if !cols.is_empty() => {
                format!("{}_{}_excl", t.name, cols.join("_"))
            }
            _ => return,
        };
        if name.len() <= 63 {
            self.set_index(name.clone(), t, cols.to_vec());
            self.constraint_indexes.insert(name);
        }
    }

    /// A column-level PRIMARY KEY or UNIQUE: its index.
    pub(super) fn column_index(&mut self, t: &Name, c: &ColumnDef) {
        let cols = std::slice::from_ref(&c.name);
        if c.primary_key {
            self.constraint_index(t, None, ConstraintKind::PrimaryKey, cols);
        } else if c.unique {
            self.constraint_index(t, None, ConstraintKind::Unique, cols);
        }
    }

    /// Column-level CHECKs, named like table CHECKs after the columns their
    /// expressions reference (`t_col_check`, `t_check`, a number while taken).
    pub(super) fn column_check(&mut self, t: &Name, c: &ColumnDef) {
        for names in &c.checks {
            let mut con = Constraint::new(None, ConstraintKind::Check);
            con.columns = names.clone();
            self.add_constraint(t, &con);
        }
    }

    pub(super) fn add_constraint(&mut self, t: &Name, c: &Constraint) {
        if matches!(
            c.kind,
            ConstraintKind::Index
                | ConstraintKind::Unique
                | ConstraintKind::PrimaryKey
                | ConstraintKind::Exclude
        ) {
            self.constraint_index(t, c.name.as_deref(), c.kind, &c.columns);
        }
        if let Some(r) = &c.references {
            self.note_fk(&t.name, &r.name);
        }
        let tb = self.tables.entry(key(t)).or_default();
        // PostgreSQL's default names: `t_pkey` (a table has one primary
        // key, so no columns in the name), a CHECK `t_<col>_check` when its
        // expression names one column (else `t_check`), a number added
        // while the name is taken; else `t_<cols>_<kind>`.
        let check_name = || {
            let mut named: Vec<&String> = c
                .columns
                .iter()
                .filter(|x| tb.columns.is_empty() || tb.columns.contains_key(*x))
                .collect();
            named.sort();
            named.dedup();
            let base = match named.as_slice() {
                [one] => format!("{}_{one}_check", t.name),
                _ => format!("{}_check", t.name),
            };
            let mut n = base.clone();
            let mut i = 0;
            while tb.constraints.contains_key(&n) {
                i += 1;
                n = format!("{base}{i}");
            }
            n
        };
        let tb_name = c.name.clone().unwrap_or_else(|| match c.kind {
            ConstraintKind::PrimaryKey => format!("{}_pkey", t.name),
            ConstraintKind::Check => check_name(),
            kind => format!(
                "{}_{}_{}",
                t.name,
                c.columns.join("_"),
                match kind {
                    ConstraintKind::ForeignKey => "fkey",
                    ConstraintKind::Exclude => "excl",
                    _ => "key",
                }
            ),
        });
        if c.kind == ConstraintKind::PrimaryKey {
            for col in &c.columns {
                if let Some(cd) = tb.columns.get_mut(col) {
                    cd.not_null = true;
                }
            }
        }
        tb.constraints.insert(
            tb_name,
            ConInfo {
                kind: c.kind,
                references: c.references.as_ref().map(|r| r.name.clone()),
                ref_columns: c.ref_columns.clone(),
                validated: !c.not_valid,
                not_null_of: c.is_not_null_of.clone(),
                columns: c.columns.clone(),
            },
        );
    }
}

/// A column-level REFERENCES is a foreign key PostgreSQL names `<table>_<col>_fkey`.
pub(super) fn column_fk(tb: &mut Table, table: &str, c: &ColumnDef) {
    if let Some(r) = &c.references {
        tb.constraints.insert(
            format!("{table}_{}_fkey", c.name),
            ConInfo {
                kind: ConstraintKind::ForeignKey,
                references: Some(r.name.clone()),
                ref_columns: c.ref_column.iter().cloned().collect(),
                validated: true,
                not_null_of: None,
                columns: vec![c.name.clone()],
            },
        );
    }
}
