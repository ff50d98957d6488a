//! What earlier migrations of the same cluster (or directory) declared:
//! column types, nullability, constraints and indexes. It lets a rule tell
//! `varchar(50) → varchar(100)` (no rewrite) from `integer → bigint`
//! (rewrite), find the table of a `DROP INDEX`, or see that a validated
//! `CHECK (col IS NOT NULL)` makes `SET NOT NULL` cheap.
use super::ops::{Alter, ColumnDef, ConstraintKind, Name, Op};
use constraints::column_fk;
use std::collections::{BTreeSet, HashMap, HashSet};

mod constraints;
mod index;
mod table;
mod toast;
pub use table::Table;
pub use toast::{toast_index_name, toast_name};

#[derive(Debug, Clone)]
pub struct ConInfo {
    pub kind: ConstraintKind,
    pub references: Option<String>,
    /// Referenced columns of a foreign key (empty: the primary key).
    pub ref_columns: Vec<String>,
    pub validated: bool,
    pub not_null_of: Option<String>,
    pub columns: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Model {
    pub tables: HashMap<String, Table>,
    /// Index name → table name.
    pub indexes: HashMap<String, String>,
    /// Index name → the schema its table was named in (`None`: unqualified).
    pub index_schema: HashMap<String, Option<Box<str>>>,
    /// Index name → the names in its column list.
    pub index_columns: HashMap<String, Vec<String>>,
    /// The other relations and objects the lock model follows.
    pub objects: Box<super::schema_objects::Objects>,
    /// Indexes a constraint made (PRIMARY KEY, UNIQUE, EXCLUDE), by name.
    pub constraint_indexes: Box<HashSet<String>>,
    /// Table → its indexes (`indexes` inverted; `index.rs` keeps both).
    by_table: HashMap<String, BTreeSet<String>>,
    /// Table → the tables that may hold a foreign key to it (a superset).
    fk_from: HashMap<String, HashSet<String>>,
}

fn key(n: &Name) -> String {
    n.name.clone()
}

/// The name PostgreSQL stores: identifiers are cut to 63 bytes
/// (NAMEDATALEN - 1), so a longer one and its cut form are the same object.
pub fn stored_name(s: &str) -> String {
    let mut end = s.len().min(63);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

impl Model {
    pub fn table(&self, n: &Name) -> Option<&Table> {
        self.tables.get(&key(n))
    }
    pub fn column(&self, t: &Name, col: &str) -> Option<&ColumnDef> {
        self.table(t)?.columns.get(col)
    }
    pub fn constraint(&self, t: &Name, name: &str) -> Option<&ConInfo> {
        self.table(t)?.constraints.get(name)
    }
    /// Whether a validated `CHECK (col IS NOT NULL)` exists.
    pub fn has_not_null_check(&self, t: &Name, col: &str) -> bool {
        self.table(t).is_some_and(|tb| {
            tb.constraints
                .values()
                .any(|c| c.validated && c.not_null_of.as_deref() == Some(col))
        })
    }
}

impl Model {
    /// Records what a statement declares, after it has been judged.
    pub fn apply(&mut self, op: &Op) {
        // A partitioned table's partitions are dropped with it: forgotten
        // here too, before the partition tree that names them is.
        if let Op::DropTable {
            names,
            if_exists,
            cascade,
        } = op
        {
            let mut all = names.clone();
            for n in names {
                for p in self.objects.all_partitions(&n.name) {
                    if !all.iter().any(|x| x.name == p) {
                        all.push(Name::new(p));
                    }
                }
            }
            if all.len() > names.len() {
                return self.apply(&Op::DropTable {
                    names: all,
                    if_exists: *if_exists,
                    cascade: *cascade,
                });
            }
        }
        self.apply_objects(op);
        match op {
            Op::CreateTable {
                name,
                columns,
                constraints,
                ..
            } => {
                let mut tb = Table::default();
                for c in columns {
                    tb.put_column(c.clone());
                    column_fk(&mut tb, &name.name, c);
                }
                self.tables.insert(key(name), tb);
                self.note_fks_of(&name.name);
                for c in columns {
                    self.column_index(name, c);
                    self.column_check(name, c);
                }
                for c in constraints {
                    self.add_constraint(name, c);
                }
            }
            Op::CreateIndex {
                name: Some(n),
                table,
                columns,
                ..
            } => self.set_index(stored_name(n), table, columns.clone()),
            Op::DropIndex { names, .. } => {
                for n in names {
                    self.forget_index(&stored_name(&n.name));
                }
            }
            Op::RenameIndex { from, to } => {
                self.rename_index(&stored_name(&from.name), stored_name(to));
            }
            Op::DropTable { names, .. } => {
                for n in names {
                    self.tables.remove(&key(n));
                    for i in self.table_indexes(&n.name) {
                        self.forget_index(&i);
                    }
                    // Its foreign keys' other ends: the server drops them
                    // with the table (CASCADE) or refuses.
                    for from in self.fk_candidates(&n.name) {
                        let Some(tb) = self.tables.get_mut(&from) else {
                            continue;
                        };
                        tb.constraints
                            .retain(|_, c| c.references.as_deref() != Some(n.name.as_str()));
                        for c in tb.columns.values_mut() {
                            if c.references.as_ref().is_some_and(|r| r.name == n.name) {
                                c.references = None;
                            }
                        }
                    }
                    self.fk_from.remove(&n.name);
                }
            }
            Op::RenameTable { from, to } => self.rename_table(from, to),
            Op::AlterTable { table, actions } => {
                for a in actions {
                    self.apply_alter(table, a);
                }
            }
            _ => {}
        }
    }

    fn apply_alter(&mut self, t: &Name, a: &Alter) {
        match a {
            // `USING INDEX i`: the server renames i to the constraint's
            // name; its columns are the constraint's.
            Alter::AddConstraint(c) if c.index.is_some() => {
                let i = stored_name(c.index.as_deref().unwrap_or_default());
                let mut c = c.clone();
                // An unnamed constraint takes the index's name.
                c.name.get_or_insert_with(|| i.clone());
                if self.indexes.get(&i) == Some(&t.name) {
                    c.columns = self.index_columns.get(&i).cloned().unwrap_or_default();
                    self.forget_index(&i);
                }
                self.add_constraint(t, &c);
            }
            Alter::AddConstraint(c) => self.add_constraint(t, c),
            // A UNIQUE / PRIMARY KEY / EXCLUDE constraint's index is
            // renamed with it (MySQL's RENAME INDEX too).
            Alter::RenameConstraint { from, to } => {
                if self.indexes.get(&stored_name(from)) == Some(&t.name) {
                    self.apply(&Op::RenameIndex {
                        from: Name::new(from.clone()),
                        to: to.clone(),
                    });
                }
                if let Some(tb) = self.tables.get_mut(&key(t))
                    && let Some(c) = tb.constraints.remove(from)
                {
                    tb.constraints.insert(to.clone(), c);
                }
            }
            Alter::RenameTo(to) => {
                self.rename_table(t, to);
                return;
            }
            _ => {}
        }
        let tb = self.tables.entry(key(t)).or_default();
        match a {
            Alter::AddColumn { col, .. } => {
                tb.put_column((**col).clone());
                column_fk(tb, &t.name, col);
                if let Some(r) = &col.references {
                    self.note_fk(&t.name, &r.name);
                }
                self.column_index(t, col);
                self.column_check(t, col);
            }
            Alter::DropColumn { name, .. } => {
                tb.drop_column(name);
                let gone: Vec<String> = self.column_indexes(t, name);
                for i in gone {
                    self.forget_index(&i);
                }
                let tb = self.tables.entry(key(t)).or_default();
                // Constraints on the column go with it.
                tb.constraints
                    .retain(|_, c| !c.columns.iter().any(|x| x == name));
            }
            Alter::ColumnType {
                name,
                new_name,
                col,
                restated,
                ..
            } => {
                let mut cd = tb.columns.get(name).cloned().unwrap_or_default();
                if *restated {
                    cd = (**col).clone();
                } else {
                    cd.ty = col.ty.clone();
                }
                let to = new_name.clone().unwrap_or_else(|| name.clone());
                let refs = cd.references.as_ref().map(|r| r.name.clone());
                tb.rename_column(name, cd, &to);
                if let Some(r) = refs {
                    self.note_fk(&t.name, &r);
                }
            }
            Alter::SetNotNull(c) => {
                tb.columns.entry(c.clone()).or_default().not_null = true;
            }
            Alter::DropNotNull(c) => {
                tb.columns.entry(c.clone()).or_default().not_null = false;
            }
            Alter::RenameColumn { from, to } => {
                if let Some(cd) = tb.columns.get(from).cloned() {
                    tb.rename_column(from, cd, to);
                }
                for c in tb.constraints.values_mut() {
                    for x in c.columns.iter_mut().filter(|x| *x == from) {
                        *x = to.clone();
                    }
                }
                // Index names stay; the columns they cover are renamed.
                for i in self.table_indexes(&t.name) {
                    if let Some(cols) = self.index_columns.get_mut(&i) {
                        for x in cols.iter_mut().filter(|x| *x == from) {
                            *x = to.clone();
                        }
                    }
                }
            }
            Alter::ValidateConstraint(n) => {
                if let Some(c) = tb.constraints.get_mut(n) {
                    c.validated = true;
                }
            }
            Alter::DropConstraint { name, .. } => {
                tb.constraints.remove(name);
                // A UNIQUE / PRIMARY KEY constraint's index goes with it.
                let n = stored_name(name);
                if self.indexes.get(&n) == Some(&t.name) {
                    self.forget_index(&n);
                }
            }
            _ => {}
        }
    }
}

impl Model {
    /// A table renamed: foreign keys follow it (they point at the table,
    /// not at its name).
    fn rename_table(&mut self, from: &Name, to: &Name) {
        if let Some(tb) = self.tables.remove(&key(from)) {
            self.tables.insert(key(to), tb);
        }
        // The tables pointing at it (itself, if it points at itself, now
        // under its new name), then the tables it points at.
        let referrers: Vec<String> = self
            .fk_candidates(&from.name)
            .into_iter()
            .map(|r| if r == from.name { to.name.clone() } else { r })
            .collect();
        for r in &referrers {
            let Some(tb) = self.tables.get_mut(r) else {
                continue;
            };
            for c in tb.constraints.values_mut() {
                if c.references.as_deref() == Some(from.name.as_str()) {
                    c.references = Some(to.name.clone());
                }
            }
            for c in tb.columns.values_mut() {
                if let Some(r) = c.references.as_mut().filter(|r| r.name == from.name) {
                    r.name = to.name.clone();
                }
            }
        }
        self.fk_from.remove(&from.name);
        for r in referrers {
            self.note_fk(&r, &to.name);
        }
        self.note_fks_of(&to.name);
        self.rename_table_indexes(&from.name, &to.name);
        self.objects.rename(&from.name, &to.name);
    }
}
