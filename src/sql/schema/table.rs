//! One table as the history declared it: its columns (with the
//! attribute numbers the server gives them, which fix the row's layout),
//! constraints and character set.
use super::ConInfo;
use crate::sql::ops::ColumnDef;
use std::collections::HashMap;

#[derive(Debug, Clone, Default)]
pub struct Table {
    pub columns: HashMap<String, ColumnDef>,
    pub constraints: HashMap<String, ConInfo>,
    pub charset: Option<String>,
    /// Each column's attribute number, as the server numbers them: in the
    /// order declared, a dropped column's number never reused.
    attnums: HashMap<String, u32>,
    /// Attributes ever added, dropped ones included (`pg_class.relnatts`).
    natts: u32,
}

impl Table {
    /// A column declared or added: a new one gets the next number.
    pub(super) fn put_column(&mut self, c: ColumnDef) {
        if !self.attnums.contains_key(&c.name) {
            self.natts += 1;
            self.attnums.insert(c.name.clone(), self.natts);
        }
        self.columns.insert(c.name.clone(), c);
    }

    /// A column renamed (or changed under a new name) keeps its number.
    pub(super) fn rename_column(&mut self, from: &str, mut c: ColumnDef, to: &str) {
        self.columns.remove(from);
        if let Some(n) = self.attnums.remove(from) {
            self.attnums.insert(to.to_string(), n);
        }
        c.name = to.to_string();
        self.put_column(c);
    }

    pub(super) fn drop_column(&mut self, name: &str) {
        self.columns.remove(name);
        self.attnums.remove(name);
    }

    /// The columns in attribute order (the row's layout); a column the
    /// history only altered, never declared, comes last.
    pub fn ordered_columns(&self) -> Vec<&ColumnDef> {
        let mut v: Vec<&ColumnDef> = self.columns.values().collect();
        v.sort_by_key(|c| {
            (
                self.attnums.get(&c.name).copied().unwrap_or(u32::MAX),
                &c.name,
            )
        });
        v
    }

    /// Attributes the row header's null bitmap covers, dropped ones too.
    pub fn natts(&self) -> u32 {
        self.natts.max(self.columns.len() as u32)
    }
}
