//! From a classified statement to the lock-table rows it triggers: one
//! `Effect` per action, naming the row (`key`), the relations it locks and
//! what the schema history says about it.
use super::context::FileCtx;
use super::ops::{Alter, ConstraintKind, Name, Op};
use super::schema::Model;
use super::types;

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
    /// Position of the action within an ALTER TABLE.
    pub action: usize,
}

impl Effect {
    fn new(key: &'static str, table: Option<&Name>) -> Effect {
        Effect {
            key,
            table: table.cloned(),
            other: Vec::new(),
            column: None,
            detail: String::new(),
            covered: false,
            action: 0,
        }
    }
    fn col(mut self, c: &str) -> Effect {
        self.column = Some(c.to_string());
        self
    }
    fn detail(mut self, d: impl Into<String>) -> Effect {
        self.detail = d.into();
        self
    }
    fn other(mut self, o: Option<&Name>) -> Effect {
        self.other.extend(o.cloned());
        self
    }
}

fn serial(base: &str) -> bool {
    matches!(base, "serial" | "bigserial" | "smallserial")
}

pub fn pg(op: &Op, model: &Model, _ctx: &FileCtx) -> Vec<Effect> {
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
            }
            let refs: Vec<&Name> = columns
                .iter()
                .filter_map(|c| c.references.as_ref())
                .chain(constraints.iter().filter_map(|c| c.references.as_ref()))
                .collect();
            if !refs.is_empty() {
                let mut e = Effect::new("create_table_references", Some(name));
                e.other = refs.into_iter().cloned().collect();
                out.push(e);
            }
            out
        }
        Op::AlterTable { table, actions } => actions
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                alter(table, a, model).into_iter().map(move |mut e| {
                    e.action = i;
                    e
                })
            })
            .collect(),
        Op::CreateIndex {
            table,
            concurrently,
            name,
            ..
        } => {
            let key = if *concurrently {
                "create_index_concurrently"
            } else {
                "create_index"
            };
            vec![Effect::new(key, Some(table)).detail(name.clone().unwrap_or_default())]
        }
        Op::DropIndex {
            names,
            concurrently,
            ..
        } => names
            .iter()
            .map(|n| {
                let key = if *concurrently {
                    "drop_index_concurrently"
                } else {
                    "drop_index"
                };
                let table = model.indexes.get(&n.name).map(|t| Name::new(t.clone()));
                Effect::new(key, table.as_ref()).detail(n.display())
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
                model
                    .indexes
                    .get(&target.name)
                    .map(|t| Name::new(t.clone()))
            };
            vec![Effect::new(key, table.as_ref()).detail(target.display())]
        }
        Op::Cluster { table } => vec![Effect::new("cluster", table.as_ref())],
        Op::Vacuum { tables, full } => {
            let key = if *full { "vacuum_full" } else { "vacuum" };
            if tables.is_empty() {
                return vec![Effect::new(key, None).detail("every table")];
            }
            tables.iter().map(|t| Effect::new(key, Some(t))).collect()
        }
        Op::RefreshMatView { name, concurrently } => {
            let key = if *concurrently {
                "refresh_matview_concurrently"
            } else {
                "refresh_matview"
            };
            vec![Effect::new(key, Some(name))]
        }
        Op::Truncate { tables, cascade } => tables
            .iter()
            .map(|t| {
                let mut e = Effect::new("truncate", Some(t));
                if *cascade {
                    e.other = model.referencing(t).into_iter().map(Name::new).collect();
                }
                e
            })
            .collect(),
        Op::DropTable { names, .. } => names
            .iter()
            .map(|t| {
                let mut e = Effect::new("drop_table", Some(t));
                e.other = model.referenced_by(t).into_iter().map(Name::new).collect();
                e
            })
            .collect(),
        Op::AddEnumValue { type_name, value } => {
            vec![Effect::new("alter_type_add_value", None).detail(format!("{type_name}: {value}"))]
        }
        Op::Lock { tables, mode } => tables
            .iter()
            .map(|t| Effect::new("lock_table", Some(t)).detail(mode.clone()))
            .collect(),
        Op::CreateTrigger { table } => vec![Effect::new("create_trigger", Some(table))],
        Op::DropTrigger { table } => vec![Effect::new("drop_trigger", table.as_ref())],
        Op::CreatePolicy { table } => vec![Effect::new("create_policy", Some(table))],
        Op::CreateRule { table } => vec![Effect::new("create_rule", Some(table))],
        Op::Dml { table, verb, .. } => vec![Effect::new("dml", Some(table)).detail(*verb)],
        _ => Vec::new(),
    }
}

fn alter(t: &Name, a: &Alter, model: &Model) -> Vec<Effect> {
    let e = |key| Effect::new(key, Some(t));
    let one = |key| vec![e(key)];
    match a {
        Alter::AddColumn { col, .. } => {
            let key = if serial(&col.ty.base) {
                "add_column_serial"
            } else if col.identity {
                "add_column_identity"
            } else if col.generated_stored {
                "add_column_generated_stored"
            } else if col.default.as_ref().is_some_and(|d| d.volatile) {
                "add_column_volatile_default"
            } else if col.default.is_some() {
                "add_column_default"
            } else if col.primary_key || col.unique {
                "add_column_unique"
            } else if col.not_null {
                "add_column_not_null"
            } else {
                "add_column"
            };
            let mut out = vec![e(key).col(&col.name).detail(col.ty.raw.clone())];
            if let Some(r) = &col.references {
                out.push(e("add_column_references").col(&col.name).other(Some(r)));
            }
            out
        }
        Alter::DropColumn { name, .. } => vec![e("drop_column").col(name)],
        Alter::ColumnType {
            name, col, using, ..
        } => {
            let old = model.column(t, name).map(|c| &c.ty);
            let coercible = types::pg_coercible(old, &col.ty);
            let rewrite = *using
                || match coercible {
                    Some(c) => !c,
                    None => !types::pg_plausibly_coercible_target(&col.ty),
                };
            let from = old.map_or("its current type".to_string(), |o| o.raw.clone());
            let key = if rewrite {
                "alter_type_rewrite"
            } else {
                "alter_type_coercible"
            };
            vec![e(key).col(name).detail(format!("{from} → {}", col.ty.raw))]
        }
        Alter::SetNotNull(c) => {
            let mut x = e("set_not_null").col(c);
            x.covered = model.has_not_null_check(t, c);
            vec![x]
        }
        Alter::DropNotNull(c) => vec![e("drop_not_null").col(c)],
        Alter::SetDefault(c) | Alter::DropDefault(c) => vec![e("set_default").col(c)],
        Alter::SetStorage(c) => vec![e("set_storage").col(c)],
        Alter::SetStatistics(c) => vec![e("set_statistics").col(c)],
        Alter::AddConstraint(c) => {
            let name = c.name.clone().unwrap_or_default();
            let key = match (c.kind, c.not_valid, c.using_index) {
                (ConstraintKind::Check, false, _) => "add_check",
                (ConstraintKind::Check, true, _) => "add_check_not_valid",
                (ConstraintKind::ForeignKey, false, _) => "add_fk",
                (ConstraintKind::ForeignKey, true, _) => "add_fk_not_valid",
                (ConstraintKind::NotNull, _, _) => "add_not_null_not_valid",
                (ConstraintKind::Exclude, _, _) => "add_exclude",
                (_, _, true) => "add_unique_pk_using_index",
                _ => "add_unique_pk",
            };
            let mut x = e(key).detail(name).other(c.references.as_ref());
            x.column = c.columns.first().cloned();
            vec![x]
        }
        Alter::ValidateConstraint(n) => {
            let referenced = model
                .constraint(t, n)
                .and_then(|c| c.references.clone())
                .map(Name::new);
            vec![
                e("validate_constraint")
                    .detail(n.clone())
                    .other(referenced.as_ref()),
            ]
        }
        Alter::DropConstraint { name, foreign_key } => {
            let known = model.constraint(t, name);
            let fk = *foreign_key
                || known.is_some_and(|c| c.kind == ConstraintKind::ForeignKey)
                || known.is_none() && (name.ends_with("_fkey") || name.starts_with("fk_"));
            if fk {
                let referenced = known.and_then(|c| c.references.clone()).map(Name::new);
                let mut x = e("drop_fk").detail(name.clone());
                x.other.extend(referenced);
                vec![x]
            } else {
                vec![e("drop_constraint").detail(name.clone())]
            }
        }
        Alter::RenameColumn { from, .. } => vec![e("rename").col(from)],
        Alter::RenameTo(_) | Alter::RenameConstraint | Alter::SetSchema => one("rename"),
        Alter::SetLogged(logged) => {
            vec![e("set_logged").detail(if *logged {
                "SET LOGGED"
            } else {
                "SET UNLOGGED"
            })]
        }
        Alter::SetTablespace => vec![e("set_tablespace").detail("SET TABLESPACE")],
        Alter::SetAccessMethod => vec![e("set_access_method").detail("SET ACCESS METHOD")],
        Alter::AttachPartition(p) => {
            let mut x = e("attach_partition").other(Some(p)).detail(p.display());
            x.covered = model.table(p).is_some_and(|tb| {
                tb.constraints
                    .values()
                    .any(|c| c.kind == ConstraintKind::Check && c.validated)
            });
            vec![x]
        }
        Alter::DetachPartition { part, concurrently } => {
            let key = if *concurrently {
                "detach_partition_concurrently"
            } else {
                "detach_partition"
            };
            vec![e(key).other(Some(part)).detail(part.display())]
        }
        Alter::Trigger => one("trigger"),
        Alter::Rule => one("rule"),
        Alter::RowLevelSecurity => one("rls"),
        Alter::Owner => one("owner"),
        Alter::ReplicaIdentity => one("replica_identity"),
        Alter::ClusterOn => one("cluster_on"),
        Alter::SetParams => one("set_params"),
        Alter::Inherit(parent) => vec![e("inherit").other(parent.as_ref())],
        _ => one("other_alter"),
    }
}
