//! MySQL/MariaDB: which `locks/mysql.csv` row each ALTER action is.
use super::Dialect;
use super::effects::Effect;
use super::ops::{Alter, ConstraintKind, Name, Op};
use super::schema::Model;
use super::types;

fn eff(key: &'static str, t: &Name, action: usize) -> Effect {
    let mut e = Effect::new(key, Some(t));
    e.action = u32::try_from(action).unwrap_or(u32::MAX);
    e
}

/// `fk_checks_off`: `SET foreign_key_checks = 0` is in force.
pub fn effects(op: &Op, model: &Model, fk_checks_off: bool, dialect: Dialect) -> Vec<Effect> {
    match op {
        Op::AlterTable { table, actions } => {
            let drops_pk = actions.iter().any(|a| matches!(a, Alter::DropPrimaryKey));
            let adds_pk = actions.iter().any(
                |a| matches!(a, Alter::AddConstraint(c) if c.kind == ConstraintKind::PrimaryKey),
            );
            actions
                .iter()
                .enumerate()
                .filter_map(|(i, a)| {
                    action(
                        table,
                        a,
                        i,
                        model,
                        (fk_checks_off, dialect),
                        (drops_pk, adds_pk),
                    )
                })
                .collect()
        }
        Op::Optimize { tables } => tables
            .iter()
            .map(|t| {
                let mut e = eff("rebuild", t, 0);
                e.detail = "OPTIMIZE TABLE".into();
                e
            })
            .collect(),
        Op::RenameTable { from, .. } => vec![eff("rename_table", from, 0)],
        _ => Vec::new(),
    }
}

fn action(
    t: &Name,
    a: &Alter,
    i: usize,
    model: &Model,
    (fk_off, dialect): (bool, Dialect),
    (drops_pk, adds_pk): (bool, bool),
) -> Option<Effect> {
    let e = |key| eff(key, t, i);
    Some(match a {
        Alter::AddColumn { col, .. } => {
            let key = if col.auto_increment {
                "add_column_auto_increment"
            } else if col.generated_stored {
                "add_column_stored"
            } else if col
                .default
                .as_ref()
                .is_some_and(|d| d.raw.to_ascii_lowercase().contains("rand("))
            {
                "add_column_rand_default"
            } else if col.default.as_ref().is_some_and(|d| d.expression) {
                "add_column_expr_default"
            } else if col.positioned {
                "add_column_positioned"
            } else {
                "add_column"
            };
            let mut x = e(key);
            x.column = Some(col.name.clone());
            x.detail = col
                .default
                .as_ref()
                .map(|d| d.raw.clone())
                .unwrap_or_default();
            x
        }
        Alter::DropColumn { name, .. } => {
            // Observed on MariaDB only; MySQL keeps the general row.
            let indexed = dialect == Dialect::MariaDb
                && model.table(t).is_some_and(|tb| {
                    tb.constraints.values().any(|c| {
                        matches!(
                            c.kind,
                            ConstraintKind::Index
                                | ConstraintKind::Unique
                                | ConstraintKind::Fulltext
                        ) && c.columns.iter().any(|x| x == name)
                    }) || tb.columns.get(name).is_some_and(|c| c.unique)
                });
            let mut x = e(if indexed {
                "drop_column_indexed"
            } else {
                "drop_column"
            });
            x.column = Some(name.clone());
            x
        }
        Alter::RenameColumn { from, .. } => {
            let mut x = e("rename_column");
            x.column = Some(from.clone());
            x
        }
        Alter::ColumnType {
            name,
            new_name,
            col,
            ..
        } => {
            let table_cs = model.table(t).and_then(|tb| tb.charset.as_deref());
            let mariadb = dialect == Dialect::MariaDb;
            let (key, detail) = types::mysql_modify_key(
                model.column(t, name),
                col,
                new_name.is_some(),
                table_cs,
                mariadb,
            );
            let key = if col.positioned && key == "set_default" {
                "reorder_column"
            } else {
                key
            };
            let mut x = e(key);
            x.column = Some(name.clone());
            x.detail = detail;
            x
        }
        Alter::SetDefault(c) | Alter::DropDefault(c) => {
            let mut x = e("set_default");
            x.column = Some(c.clone());
            x
        }
        Alter::AddConstraint(c) => {
            let key = match c.kind {
                ConstraintKind::Index => "add_index",
                ConstraintKind::Unique => "add_unique",
                ConstraintKind::Fulltext => "add_fulltext",
                ConstraintKind::Spatial => "add_spatial",
                ConstraintKind::PrimaryKey if drops_pk => "drop_add_pk",
                ConstraintKind::PrimaryKey => "add_pk",
                ConstraintKind::ForeignKey if fk_off => "add_fk_nochecks",
                ConstraintKind::ForeignKey => "add_fk_checks",
                ConstraintKind::Check => "add_check",
                _ => "add_index",
            };
            let mut x = e(key);
            x.detail = c.name.clone().unwrap_or_default();
            x.other.extend(c.references.clone());
            x
        }
        Alter::DropPrimaryKey if adds_pk => return None,
        Alter::DropPrimaryKey => e("drop_pk"),
        Alter::DropIndex(_) => e("drop_index"),
        Alter::DropConstraint { .. } => e("drop_fk"),
        Alter::RenameConstraint { .. } => e("rename_index"),
        Alter::RenameTo(_) => e("rename_to"),
        Alter::ConvertCharset => e("convert_charset"),
        Alter::RowFormat => e("row_format"),
        Alter::Engine | Alter::Force => {
            let mut x = e("rebuild");
            x.detail = "FORCE / ENGINE".into();
            x
        }
        Alter::DefaultCharset => e("default_charset"),
        Alter::AutoIncrementValue => e("auto_increment_value"),
        Alter::Comment => e("comment"),
        _ => return None,
    })
}
