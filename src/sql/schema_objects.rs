//! What the history declared besides tables' columns and constraints,
//! because the server locks it or through it: temporary tables (nobody
//! else sees them), partitions and the DEFAULT partition (attaching a new
//! one scans it), views and what they read (`DROP … CASCADE` reaches
//! them), functions' volatility (a column default's rewrite) and which
//! triggers call which function (dropping it CASCADE drops them).
use super::ops::{Alter, Name, Op};
use super::schema::Model;
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Debug, Clone, Default)]
pub struct View {
    pub materialized: bool,
    /// Every name its query mentions.
    pub deps: BTreeSet<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Objects {
    pub temp: BTreeSet<String>,
    pub partitioned: BTreeSet<String>,
    /// Parent → its partitions.
    pub partitions: BTreeMap<String, BTreeSet<String>>,
    /// Parent → its DEFAULT partition.
    pub default_partition: HashMap<String, String>,
    pub views: BTreeMap<String, View>,
    /// User function → `i`, `s` or `v` (as `pg_proc.provolatile`).
    pub functions: HashMap<String, char>,
    /// `(table, trigger, function)` of each trigger.
    pub triggers: Vec<(String, String, String)>,
    /// Function → the materialized views its body refreshes (`true`: CONCURRENTLY).
    pub refreshes: HashMap<String, Vec<(String, bool)>>,
    /// Function → the tables its body writes.
    pub writes: HashMap<String, Vec<String>>,
    /// Domain → it has constraints (CHECK / NOT NULL).
    pub domains: HashMap<String, bool>,
    /// Tables moved off the default tablespace.
    pub tablespace: HashMap<String, String>,
}

impl Objects {
    pub(super) fn rename(&mut self, from: &str, to: &str) {
        let swap = |set: &mut BTreeSet<String>| {
            if set.remove(from) {
                set.insert(to.to_string());
            }
        };
        swap(&mut self.temp);
        swap(&mut self.partitioned);
        if let Some(p) = self.partitions.remove(from) {
            self.partitions.insert(to.to_string(), p);
        }
        for p in self.partitions.values_mut() {
            if p.remove(from) {
                p.insert(to.to_string());
            }
        }
        if let Some(d) = self.default_partition.remove(from) {
            self.default_partition.insert(to.to_string(), d);
        }
        for d in self.default_partition.values_mut().filter(|d| *d == from) {
            *d = to.to_string();
        }
        if let Some(v) = self.views.remove(from) {
            self.views.insert(to.to_string(), v);
        }
        for (t, _, _) in self.triggers.iter_mut().filter(|(t, _, _)| t == from) {
            *t = to.to_string();
        }
    }

    /// Views and materialized views that read `name`, directly or through
    /// another view: what `DROP … CASCADE` of it removes.
    pub fn dependent_views(&self, name: &str) -> Vec<String> {
        let mut out: BTreeSet<String> = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            for (v, info) in &self.views {
                if info.deps.contains(&n) && v != name && out.insert(v.clone()) {
                    todo.push(v.clone());
                }
            }
        }
        out.into_iter().collect()
    }

    /// Every partition below `parent`, sub-partitions included.
    pub fn all_partitions(&self, parent: &str) -> Vec<String> {
        let mut out = BTreeSet::new();
        let mut todo = vec![parent.to_string()];
        while let Some(p) = todo.pop() {
            for c in self.partitions.get(&p).into_iter().flatten() {
                if out.insert(c.clone()) {
                    todo.push(c.clone());
                }
            }
        }
        out.into_iter().collect()
    }

    /// Materialized views the triggers on `table` refresh (`true`: CONCURRENTLY).
    pub fn trigger_refreshes(&self, table: &str) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = self
            .triggers
            .iter()
            .filter(|(t, _, _)| t == table)
            .flat_map(|(_, _, f)| self.refreshes.get(f).cloned().unwrap_or_default())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Tables the trigger functions on `table` write (other than itself).
    pub fn trigger_writes(&self, table: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .triggers
            .iter()
            .filter(|(t, _, _)| t == table)
            .flat_map(|(_, _, f)| self.writes.get(f).cloned().unwrap_or_default())
            .filter(|w| w != table)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Tables with a trigger that calls `function`.
    pub fn trigger_tables(&self, function: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .triggers
            .iter()
            .filter(|(_, _, f)| f == function)
            .map(|(t, _, _)| t.clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn forget(&mut self, name: &str) {
        self.temp.remove(name);
        self.partitioned.remove(name);
        self.partitions.remove(name);
        for p in self.partitions.values_mut() {
            p.remove(name);
        }
        self.default_partition.remove(name);
        self.default_partition.retain(|_, d| d != name);
        self.views.remove(name);
        self.tablespace.remove(name);
        self.triggers.retain(|(t, _, _)| t != name);
    }
}

impl Model {
    /// A relation nobody else can have locked or be waiting on: a
    /// temporary table of this session.
    pub fn is_temp(&self, n: &Name) -> bool {
        match n.schema.as_deref() {
            Some(s) => s.starts_with("pg_temp"),
            None => self.objects.temp.contains(&n.name),
        }
    }

    pub(super) fn apply_objects(&mut self, op: &Op) {
        let o = &mut self.objects;
        match op {
            Op::CreateTable {
                name,
                partition_of,
                default_partition,
                partitioned,
                temp,
                ..
            } => {
                o.forget(&name.name);
                if *temp {
                    o.temp.insert(name.name.clone());
                }
                if *partitioned {
                    o.partitioned.insert(name.name.clone());
                }
                if let Some(p) = partition_of {
                    o.partitions
                        .entry(p.name.clone())
                        .or_default()
                        .insert(name.name.clone());
                    if *default_partition {
                        o.default_partition
                            .insert(p.name.clone(), name.name.clone());
                    }
                }
            }
            Op::AlterTable { table, actions } => {
                for a in actions {
                    match a {
                        Alter::AttachPartition(p) => {
                            o.partitions
                                .entry(table.name.clone())
                                .or_default()
                                .insert(p.name.clone());
                        }
                        Alter::SetTablespace(ts) => {
                            o.tablespace.insert(table.name.clone(), ts.clone());
                        }
                        Alter::DetachPartition { part, .. } => {
                            if let Some(s) = o.partitions.get_mut(&table.name) {
                                s.remove(&part.name);
                            }
                            o.default_partition.retain(|_, d| *d != part.name);
                        }
                        _ => {}
                    }
                }
            }
            Op::DropTable { names, .. } | Op::DropView { names, .. } => {
                for n in names {
                    for v in o.dependent_views(&n.name) {
                        o.views.remove(&v);
                    }
                    o.forget(&n.name);
                }
            }
            Op::CreateView {
                name,
                materialized,
                deps,
                ..
            } => {
                o.views.insert(
                    name.name.clone(),
                    View {
                        materialized: *materialized,
                        deps: deps.iter().cloned().collect(),
                    },
                );
            }
            Op::CreateDomain { name, constrained } => {
                o.domains.insert(name.name.clone(), *constrained);
            }
            Op::CreateFunction {
                name,
                volatility,
                refreshes,
                writes,
            } => {
                o.functions.insert(name.name.clone(), *volatility);
                o.refreshes.insert(name.name.clone(), refreshes.clone());
                o.writes.insert(name.name.clone(), writes.clone());
            }
            Op::DropFunction { names, .. } => {
                for n in names {
                    o.functions.remove(&n.name);
                    o.refreshes.remove(&n.name);
                    o.writes.remove(&n.name);
                    o.triggers.retain(|(_, _, f)| *f != n.name);
                }
            }
            Op::CreateTrigger {
                table,
                name,
                function: Some(f),
            } => o
                .triggers
                .push((table.name.clone(), name.clone(), f.clone())),
            Op::DropTrigger { table, name } => o
                .triggers
                .retain(|(t, n, _)| !(n == name && table.as_ref().is_none_or(|x| x.name == *t))),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sql::Dialect;
    use crate::sql::analysis::analyze_file;
    use crate::sql::schema::Model;
    use crate::sql::verify::file_ctx;

    #[test]
    fn views_follow_their_sources() {
        let mut m = Model::default();
        let sql = "CREATE TABLE p (id int PRIMARY KEY);\nCREATE MATERIALIZED VIEW p_mv AS SELECT id FROM p;\nCREATE VIEW p_v AS SELECT id FROM p_mv;\n";
        let fa = analyze_file(
            sql,
            0,
            file_ctx(Dialect::Postgres, crate::sql::Version(15, 0, 0)),
            &mut m,
        );
        assert!(fa.stmts[1].op.is_some(), "{:?}", fa.stmts[1]);
        assert_eq!(m.objects.dependent_views("p"), ["p_mv", "p_v"]);
    }
}
