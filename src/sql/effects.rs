//! From a classified statement to the lock-table rows it triggers: one
//! `Effect` per action, naming the row (`key`), the relations it locks and
//! what the schema history says about it.
use super::context::FileCtx;
use super::effects_toast::toast_of;
use super::ops::{Name, Op};
use super::schema::Model;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// Row of `locks/pg.csv` or `locks/mysql.csv`.
    pub key: &'static str,
    /// The relation the row's main lock is on (`None`: unknown, e.g. the
    /// table of an index no earlier migration created).
    pub table: Option<Name>,
    /// Relations that get the row's other lock (referenced, parent, partition).
    pub other: Vec<Name>,
    pub column: Option<String>,
    /// What makes this case what it is (`varchar(50) → bigint`, a constraint name).
    pub detail: String,
    /// A condition that removes the scan is met (validated NOT NULL check…).
    pub covered: bool,
    /// Position of the action within an ALTER TABLE (`u32`: it packs
    /// with the flags, a word less of every effect the analysis keeps).
    pub action: u32,
    /// The lock is taken only if rows reach the relation (a foreign-key
    /// check, a cascading action, a row routed to a partition).
    pub conditional: bool,
    /// TOAST tables the row locks, by owner (`true`: certain; `false`:
    /// only if a long value is written there, or the history does not say
    /// whether the owner has one). The lock is the row's (`locks::Toast`).
    pub toast: Vec<(Name, bool)>,
    /// `toast` was decided where the effect was made (REINDEX INDEX
    /// reaches no TOAST table; a CASCADE reaches the dropped views').
    pub(super) toast_set: bool,
}

/// What the session has set so far that changes a statement's effects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionFacts {
    /// TimeZone is UTC (`SET timezone = 'UTC'`, or the server's own).
    pub utc: bool,
}

impl Effect {
    pub(super) fn new(key: &'static str, table: Option<&Name>) -> Effect {
        Effect {
            key,
            table: table.cloned(),
            other: Vec::new(),
            column: None,
            detail: String::new(),
            covered: false,
            action: 0,
            conditional: false,
            toast: Vec::new(),
            toast_set: false,
        }
    }
    pub(super) fn col(mut self, c: &str) -> Effect {
        self.column = Some(c.to_string());
        self
    }
    pub(super) fn detail(mut self, d: impl Into<String>) -> Effect {
        self.detail = d.into();
        self
    }
    pub(super) fn other(mut self, o: Option<&Name>) -> Effect {
        self.other.extend(o.cloned());
        self
    }
}

pub(super) fn names(v: Vec<String>) -> Vec<Name> {
    v.into_iter().map(Name::new).collect()
}

/// A row whose other lock is on the table's indexes (a rewrite rebuilds
/// each of them): those the history created, by name.
fn with_indexes(mut e: Effect, model: &Model) -> Effect {
    if let Some(t) = &e.table
        && super::locks::pg(e.key).other_relation == "index"
    {
        e.other.extend(names(model.table_indexes(&t.name)));
    }
    e
}

pub fn pg(op: &Op, model: &Model, ctx: &FileCtx, sess: &SessionFacts) -> Vec<Effect> {
    let mut out = pg_rows(op, model, ctx, sess);
    for e in out.iter_mut().filter(|e| !e.toast_set) {
        if super::locks::pg(e.key).toast != super::locks::Toast::No
            && let Some(t) = e.table.clone()
        {
            e.toast = toast_of(model, &[t]);
        }
    }
    out
}

fn pg_rows(op: &Op, model: &Model, _ctx: &FileCtx, sess: &SessionFacts) -> Vec<Effect> {
    match op {
        Op::CreateTable {
            name,
            columns,
            constraints,
            partition_of,
            ..
        } => {
            let mut out = Vec::new();
            if let Some(parent) = partition_of {
                out.push(
                    Effect::new("create_table_partition_of", Some(parent)).detail(name.display()),
                );
                out.extend(super::effects_alter::default_partition_scan(parent, model));
            }
            // A partition gets a clone of each of its parent's foreign
            // keys, with their triggers on the referenced tables.
            let inherited = partition_of
                .as_ref()
                .map(|p| names(model.referenced_by(p)))
                .unwrap_or_default();
            let mut refs: Vec<Name> = columns
                .iter()
                .filter_map(|c| c.references.clone())
                .chain(constraints.iter().filter_map(|c| c.references.clone()))
                .chain(inherited)
                .collect();
            refs.dedup();
            if !refs.is_empty() {
                let mut e = Effect::new("create_table_references", Some(name));
                e.other = refs;
                out.push(e);
            }
            out
        }
        Op::AlterTable { table, actions } => actions
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                super::effects_alter::alter(table, a, model, sess)
                    .into_iter()
                    .map(move |mut e| {
                        e.action = u32::try_from(i).unwrap_or(u32::MAX);
                        // A rewrite rebuilds every index of the table.
                        if super::locks::pg(e.key).other_relation == "index" {
                            e.other.extend(names(model.table_indexes(&table.name)));
                        }
                        e
                    })
            })
            .collect(),
        Op::CreateIndex {
            table,
            concurrently,
            name,
            only,
            ..
        } => {
            let partitioned = model.objects.partitioned.contains(&table.name);
            let key = match (*concurrently, partitioned) {
                _ if *only && partitioned => "create_index_only",
                (true, true) => "create_index_concurrently_partitioned",
                (true, false) => "create_index_concurrently",
                (false, true) => "create_index_partitioned",
                (false, false) => "create_index",
            };
            let mut e = Effect::new(key, Some(table)).detail(name.clone().unwrap_or_default());
            if partitioned && !*concurrently && !*only {
                e.other = names(model.objects.all_partitions(&table.name));
            }
            vec![e]
        }
        Op::DropIndex {
            names,
            concurrently,
            ..
        } => names
            .iter()
            .map(|n| {
                let key = match concurrently {
                    true => "drop_index_concurrently",
                    false => "drop_index",
                };
                let mut e = Effect::new(key, index_table(model, n).as_ref()).detail(n.display());
                // The index itself goes under ACCESS EXCLUSIVE (the
                // CONCURRENTLY form in its last transaction, after the
                // waits for the table's other users).
                if e.table.is_some() {
                    e.other.push(Name::new(super::schema::stored_name(&n.name)));
                }
                e
            })
            .collect(),
        Op::Reindex {
            target,
            table_level,
            concurrently,
        } => {
            let key = if *concurrently {
                "reindex_concurrently"
            } else {
                "reindex"
            };
            let table = if *table_level {
                Some(target.clone())
            } else {
                index_table(model, target)
            };
            let mut e = Effect::new(key, table.as_ref()).detail(target.display());
            // REINDEX INDEX rebuilds that index alone; REINDEX TABLE the
            // TOAST table's index too, under SHARE on the TOAST table.
            // CONCURRENTLY builds a copy beside each index, swaps the names
            // under SHARE UPDATE EXCLUSIVE, then drops the old one under
            // ACCESS EXCLUSIVE once no transaction that saw it is left (as
            // DROP INDEX CONCURRENTLY does): either way each index named.
            e.toast_set = !*table_level;
            e.other = if *table_level {
                names(model.table_indexes(&target.name))
            } else if table.is_some() {
                vec![Name::new(super::schema::stored_name(&target.name))]
            } else {
                Vec::new()
            };
            vec![e]
        }
        Op::Cluster { table } => vec![with_indexes(Effect::new("cluster", table.as_ref()), model)],
        Op::Vacuum { tables, full } => {
            let key = if *full { "vacuum_full" } else { "vacuum" };
            if tables.is_empty() {
                return vec![Effect::new(key, None).detail("every table")];
            }
            tables
                .iter()
                .map(|t| with_indexes(Effect::new(key, Some(t)), model))
                .collect()
        }
        Op::RefreshMatView { name, concurrently } => {
            let key = if *concurrently {
                "refresh_matview_concurrently"
            } else {
                "refresh_matview"
            };
            vec![with_indexes(Effect::new(key, Some(name)), model)]
        }
        Op::Truncate { tables, cascade } => super::effects_drop::truncate(model, tables, *cascade),
        Op::DropTable {
            names: list,
            cascade,
            ..
        } => super::effects_drop::drop_table(model, list, *cascade),
        Op::DropView {
            names: list,
            cascade,
            ..
        } => list
            .iter()
            .map(|v| {
                let mut e = Effect::new("drop_view", Some(v));
                if *cascade {
                    e.other = names(model.objects.dependent_views(&v.name));
                }
                // A materialized view's indexes go with it, and those of
                // the materialized views the CASCADE drops.
                let mut gone: Vec<String> = e.other.iter().map(|n| n.name.clone()).collect();
                gone.push(v.name.clone());
                e.toast = toast_of(model, &names(gone.clone()));
                e.toast_set = true;
                for g in gone {
                    e.other.extend(names(model.table_indexes(&g)));
                }
                e
            })
            .collect(),
        Op::CreateView {
            name,
            or_replace: true,
            ..
        } if model.objects.views.contains_key(&name.name) => {
            vec![Effect::new("create_or_replace_view", Some(name))]
        }
        Op::DropFunction {
            names: list,
            cascade: true,
        } => list
            .iter()
            .flat_map(|f| model.objects.trigger_tables(&f.name))
            .map(|t| Effect::new("drop_function_cascade", Some(&Name::new(t))))
            .collect(),
        Op::AlterTrigger { table } => vec![Effect::new("alter_trigger", Some(table))],
        // The index alone is locked (its table is not).
        Op::RenameIndex { from, .. } => {
            let n = Name {
                schema: from.schema.clone(),
                name: super::schema::stored_name(&from.name),
            };
            vec![Effect::new("rename_index", Some(&n)).detail(from.display())]
        }
        // Only the index is locked; the level is the options' (PostgreSQL
        // 15: fillfactor and btree's deduplicate_items under SHARE UPDATE
        // EXCLUSIVE, gist/gin/brin options under ACCESS EXCLUSIVE).
        Op::IndexParams { index, params } => {
            let n = Name {
                schema: index.schema.clone(),
                name: super::schema::stored_name(&index.name),
            };
            let sue = !params.is_empty()
                && params
                    .iter()
                    .all(|p| matches!(p.as_str(), "fillfactor" | "deduplicate_items"));
            let key = if sue {
                "alter_index_set"
            } else {
                "alter_index_set_exclusive"
            };
            vec![Effect::new(key, Some(&n)).detail(params.join(", "))]
        }
        Op::AttachIndex { parent, child } => {
            let stored = |n: &Name| Name {
                schema: n.schema.clone(),
                name: super::schema::stored_name(&n.name),
            };
            let mut e = Effect::new("attach_index", Some(&stored(parent))).detail(child.display());
            e.other.push(stored(child));
            vec![e]
        }
        Op::Policy { table, drop } => {
            let key = if *drop { "drop_policy" } else { "alter_policy" };
            vec![Effect::new(key, Some(table))]
        }
        Op::AlterSequence {
            name,
            options: true,
        } => {
            vec![Effect::new("alter_sequence", Some(name))]
        }
        Op::Analyze { tables } => tables
            .iter()
            .map(|t| Effect::new("analyze", Some(t)))
            .collect(),
        Op::AddEnumValue { type_name, value } => {
            vec![Effect::new("alter_type_add_value", None).detail(format!("{type_name}: {value}"))]
        }
        Op::Lock { tables, mode } => tables
            .iter()
            .map(|t| Effect::new("lock_table", Some(t)).detail(mode.clone()))
            .collect(),
        Op::CreateTrigger { table, .. } => vec![Effect::new("create_trigger", Some(table))],
        Op::DropTrigger { table, .. } => vec![Effect::new("drop_trigger", table.as_ref())],
        Op::CreatePolicy { table } => vec![Effect::new("create_policy", Some(table))],
        Op::CreateRule { table } => vec![Effect::new("create_rule", Some(table))],
        Op::Dml {
            table,
            verb,
            cte_writes,
            ..
        } => {
            let mut out = dml(table, verb, model);
            for w in cte_writes {
                out.extend(dml(w, "WITH", model));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The table of an index the history created, when the name as written
/// (schema included) is that index: `DROP INDEX other.i` is not `i`.
fn index_table(model: &Model, n: &Name) -> Option<Name> {
    let stored = super::schema::stored_name(&n.name);
    let t = model.indexes.get(&stored)?;
    let schema = model.index_schema.get(&stored).cloned().flatten();
    let public = |s: &Option<Box<str>>| s.as_deref().is_none_or(|s| s == "public");
    let same = match (&n.schema, &schema) {
        (a, b) if public(a) && public(b) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    };
    same.then(|| Name {
        schema,
        name: t.clone(),
    })
}

/// A row statement and the relations its rows may reach: the tables its
/// foreign keys point at (checked FOR KEY SHARE), the tables whose foreign
/// keys point at it (their ON DELETE/UPDATE action), its partitions.
fn dml(table: &Name, verb: &str, model: &Model) -> Vec<Effect> {
    let mut out = vec![Effect::new("dml", Some(table)).detail(verb.to_string())];
    let cond = |key, t: String| {
        let mut e = Effect::new(key, Some(&Name::new(t))).detail(table.display());
        e.conditional = true;
        e
    };
    if verb != "DELETE" {
        out.extend(
            model
                .referenced_by(table)
                .into_iter()
                .map(|t| cond("dml_fk_check", t)),
        );
    }
    if verb != "INSERT" {
        out.extend(
            model
                .referencing(table)
                .into_iter()
                .map(|t| cond("dml_fk_action", t)),
        );
    }
    out.extend(
        model
            .objects
            .all_partitions(&table.name)
            .into_iter()
            .map(|t| cond("dml_partition_route", t)),
    );
    // A trigger function's INSERT / UPDATE / DELETE runs inside the
    // statement: ROW EXCLUSIVE on each table it writes, if it fires.
    out.extend(
        model
            .objects
            .trigger_writes(&table.name)
            .into_iter()
            .map(|t| cond("dml_trigger_write", t)),
    );
    for (mv, concurrently) in model.objects.trigger_refreshes(&table.name) {
        let key = if concurrently {
            "dml_trigger_refresh_concurrently"
        } else {
            "dml_trigger_refresh"
        };
        out.push(cond(key, mv));
    }
    out
}
