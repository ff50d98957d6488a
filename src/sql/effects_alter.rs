//! `ALTER TABLE` actions to lock-table rows (PostgreSQL), with the second
//! relations the server locks through foreign keys and partitions.
use super::effects::{Effect, SessionFacts};
use super::ops::{Alter, ColumnDef, ConstraintKind, Name};
use super::schema::Model;
use super::types;

fn serial(base: &str) -> bool {
    matches!(base, "serial" | "bigserial" | "smallserial")
}

/// Storage parameters PostgreSQL 15 changes under SHARE UPDATE EXCLUSIVE
/// (`AlterTableGetRelOptionsLockLevel`); any other takes ACCESS EXCLUSIVE.
const SUE_PARAMS: &[&str] = &[
    "fillfactor",
    "toast_tuple_target",
    "parallel_workers",
    "vacuum_index_cleanup",
    "vacuum_truncate",
    "log_autovacuum_min_duration",
];

fn param_is_sue(p: &str) -> bool {
    let p = p.strip_prefix("toast.").unwrap_or(p);
    SUE_PARAMS.contains(&p) || p.starts_with("autovacuum_")
}

/// Whether a default is evaluated per row: it calls a function that is
/// VOLATILE in `pg_proc`, or a user function whose `CREATE FUNCTION` in the
/// history does not say IMMUTABLE or STABLE (an unknown one is VOLATILE,
/// as the server's default is).
pub fn volatile_default(col: &ColumnDef, model: &Model) -> bool {
    col.default.as_ref().is_some_and(|d| {
        d.volatile
            || d.calls.iter().any(|f| {
                let v =
                    super::pg_proc::builtin(f).or_else(|| model.objects.functions.get(f).copied());
                v.is_none_or(|v| v == 'v')
            })
    })
}

fn add_column(t: &Name, col: &ColumnDef, model: &Model) -> Vec<Effect> {
    let e = |key| Effect::new(key, Some(t));
    let domain = model.objects.domains.get(&col.ty.base).copied();
    let key = if serial(&col.ty.base) {
        "add_column_serial"
    } else if col.identity {
        "add_column_identity"
    } else if col.generated_stored {
        "add_column_generated_stored"
    } else if volatile_default(col, model) {
        "add_column_volatile_default"
    } else if domain == Some(true) {
        "add_column_domain_check"
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
    if !col.checks.is_empty() {
        out.push(e("add_column_check").col(&col.name));
    }
    if let Some(r) = &col.references {
        // A default fills every row, so the new key is checked against them.
        let filled = col
            .default
            .as_ref()
            .is_some_and(|d| !d.raw.trim().eq_ignore_ascii_case("null"));
        let key = if filled {
            "add_column_references_default"
        } else {
            "add_column_references"
        };
        out.push(e(key).col(&col.name).other(Some(r)));
    }
    out
}

fn names(v: Vec<String>) -> Vec<Name> {
    v.into_iter().map(Name::new).collect()
}

pub fn alter(t: &Name, a: &Alter, model: &Model, sess: &SessionFacts) -> Vec<Effect> {
    let e = |key| Effect::new(key, Some(t));
    let one = |key| vec![e(key)];
    match a {
        Alter::AddColumn { col, .. } => add_column(t, col, model),
        Alter::DropColumn { name, cascade, .. } => {
            // The indexes on the column go with it, under ACCESS EXCLUSIVE.
            let mut first = e("drop_column").col(name);
            first.other = names(model.column_indexes(t, name));
            let mut out = vec![first];
            let fks = model.fks_on_column(t, name);
            if !fks.is_empty() {
                let mut x = e("drop_column_fk").col(name);
                x.other = names(fks);
                out.push(x);
            }
            let referencing = model.fks_to_column(t, name);
            if *cascade && !referencing.is_empty() {
                let mut x = e("drop_column_referenced").col(name);
                x.other = names(referencing);
                out.push(x);
            }
            out
        }
        Alter::ColumnType {
            name,
            col,
            using,
            using_plain,
            collate,
            ..
        } => {
            let old = model.column(t, name).map(|c| &c.ty);
            let coercible = types::pg_coercible_in(old, &col.ty, sess.utc);
            // `USING col` / `USING col::newtype` is the plain cast: the
            // server judges it as if nothing were written.
            let rewrite = (*using && !*using_plain)
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
            let mut out = vec![e(key).col(name).detail(format!("{from} → {}", col.ty.raw))];
            // Without a rewrite the column's indexes are still rebuilt when
            // their operator class or collation changes, and that reads the table.
            let zone = old.is_some_and(|o| {
                matches!(
                    (o.base.as_str(), col.ty.base.as_str()),
                    ("timestamp", "timestamptz") | ("timestamptz", "timestamp")
                )
            });
            if !rewrite && (*collate || zone) && !model.column_indexes(t, name).is_empty() {
                out.push(e("alter_type_index_rebuild").col(name));
            }
            // The foreign keys on the column, and those pointing at it, are
            // dropped and re-created with the new type; restating the
            // column's own type re-creates them too (the locks), but the
            // server skips re-checking the rows when the type is unchanged.
            let same = old.is_some_and(|o| {
                o.base == col.ty.base
                    && o.args == col.ty.args
                    && o.array == col.ty.array
                    && o.members == col.ty.members
            }) && (!*using || *using_plain);
            let fks = model.fks_on_column(t, name);
            if !fks.is_empty() {
                let mut x = e("alter_type_fk").col(name);
                x.other = names(fks);
                x.covered = same;
                out.push(x);
            }
            let referencing = model.fks_to_column(t, name);
            if !referencing.is_empty() {
                let mut x = e("alter_type_referenced").col(name);
                x.other = names(referencing);
                x.covered = same;
                out.push(x);
            }
            out
        }
        Alter::SetNotNull(c) => {
            let mut x = e("set_not_null").col(c);
            // Already NOT NULL: the server has nothing to check.
            x.covered = model.has_not_null_check(t, c)
                || model.column(t, c).is_some_and(|col| col.not_null);
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
            // `USING INDEX i`: renaming the index to the constraint's name
            // locks it (an unnamed constraint takes the index's name, and
            // one already so named is only read).
            if key == "add_unique_pk_using_index"
                && let Some(i) = &c.index
                && c.name.as_deref().is_some_and(|n| n != i)
            {
                x.other.push(Name::new(crate::sql::schema::stored_name(i)));
            }
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
                // A UNIQUE / PRIMARY KEY / EXCLUDE constraint's index goes
                // with it, under ACCESS EXCLUSIVE.
                let mut x = e("drop_constraint").detail(name.clone());
                let index = crate::sql::schema::stored_name(name);
                if model.indexes.get(&index) == Some(&t.name) {
                    x.other.push(Name::new(index));
                }
                vec![x]
            }
        }
        Alter::RenameColumn { from, .. } => vec![e("rename").col(from)],
        Alter::RenameConstraint { from, .. } => {
            let mut out = one("rename");
            // A constraint's index is renamed with it.
            let index = crate::sql::schema::stored_name(from);
            if model.indexes.get(&index) == Some(&t.name) {
                let mut x = e("rename_constraint_index").detail(from.clone());
                x.other.push(Name::new(index));
                out.push(x);
            }
            out
        }
        Alter::RenameTo(_) | Alter::SetSchema => one("rename"),
        Alter::SetLogged(logged) => {
            vec![e("set_logged").detail(if *logged {
                "SET LOGGED"
            } else {
                "SET UNLOGGED"
            })]
        }
        Alter::SetTablespace(ts) => {
            let current = model
                .objects
                .tablespace
                .get(&t.name)
                .map_or("pg_default", String::as_str);
            let key = if ts == current {
                "set_tablespace_same"
            } else {
                "set_tablespace"
            };
            vec![e(key).detail(format!("SET TABLESPACE {ts}"))]
        }
        Alter::SetAccessMethod(am) => {
            // PostgreSQL 15 ships one table access method: heap.
            let key = if am == "heap" {
                "set_access_method_same"
            } else {
                "set_access_method"
            };
            vec![e(key).detail(format!("SET ACCESS METHOD {am}"))]
        }
        Alter::AttachPartition(p) => {
            let mut x = e("attach_partition").other(Some(p)).detail(p.display());
            x.covered = model.table(p).is_some_and(|tb| {
                tb.constraints
                    .values()
                    .any(|c| c.kind == ConstraintKind::Check && c.validated)
            });
            let mut out = vec![x];
            out.extend(default_partition_scan(t, model));
            out
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
        Alter::ClusterOn(index) => {
            let mut x = e("cluster_on");
            // `CLUSTER ON i` marks the index; SET WITHOUT CLUSTER names none.
            x.other.extend(
                index
                    .as_deref()
                    .map(|i| Name::new(crate::sql::schema::stored_name(i))),
            );
            vec![x]
        }
        Alter::SetParams(params) => {
            let key = if !params.is_empty() && params.iter().all(|p| param_is_sue(p)) {
                "set_params"
            } else {
                "set_params_exclusive"
            };
            vec![e(key).detail(params.join(", "))]
        }
        Alter::Inherit(parent) => vec![e("inherit").other(parent.as_ref())],
        _ => one("other_alter"),
    }
}

/// A new partition of `parent` when it has a DEFAULT partition: the
/// server locks the default partition and scans it for rows that now
/// belong to the new one.
pub fn default_partition_scan(parent: &Name, model: &Model) -> Option<Effect> {
    let d = model.objects.default_partition.get(&parent.name)?;
    Some(
        Effect::new("default_partition_scan", Some(&Name::new(d.clone()))).detail(parent.display()),
    )
}
