//! `ALTER TABLE` actions, PostgreSQL and MySQL/MariaDB forms.
use super::columns::{column_def, constraint, starts_constraint, type_name};
use super::cursor::{Cur, split_commas};
use crate::sql::lexer::Token;
use crate::sql::ops::{Alter, ColumnDef, Name};

pub fn actions(text: &str, toks: &[Token]) -> Vec<Alter> {
    let mut out: Vec<Alter> = split_commas(text, toks)
        .into_iter()
        .filter(|a| !a.is_empty())
        .map(|a| action(Cur::new(text, a)))
        .collect();
    // The filter hides the length, so `collect` keeps room for four
    // actions; the statement is kept until the rules have run.
    out.shrink_to_fit();
    out
}

fn action(mut c: Cur) -> Alter {
    let first = c.word_at(0).unwrap_or_default();
    c.i += 1;
    match first.as_str() {
        "add" => add(c),
        "drop" => drop(c),
        "alter" => {
            c.eat(&["column"]);
            alter_column(c)
        }
        "modify" => {
            c.eat(&["column"]);
            let col = column_def(&mut c).unwrap_or_default();
            Alter::ColumnType {
                name: col.name.clone(),
                new_name: None,
                col: Box::new(col),
                using: false,
                using_plain: false,
                collate: false,
                restated: true,
            }
        }
        "change" => {
            c.eat(&["column"]);
            let old = c.ident().unwrap_or_default();
            let col = column_def(&mut c).unwrap_or_default();
            Alter::ColumnType {
                new_name: (col.name != old).then(|| col.name.clone()),
                name: old,
                col: Box::new(col),
                using: false,
                using_plain: false,
                collate: false,
                restated: true,
            }
        }
        "rename" => rename(c),
        "set" => set(c),
        "reset" => Alter::SetParams(param_names(&mut c)),
        "validate" => {
            c.eat(&["constraint"]);
            Alter::ValidateConstraint(c.ident().unwrap_or_default())
        }
        "attach" => {
            c.eat(&["partition"]);
            Alter::AttachPartition(c.name().unwrap_or_default())
        }
        "detach" => {
            c.eat(&["partition"]);
            let part = c.name().unwrap_or_default();
            Alter::DetachPartition {
                part,
                concurrently: c.has_word("concurrently") || c.has_word("finalize"),
            }
        }
        "enable" | "disable" => {
            if c.has_word("trigger") {
                Alter::Trigger
            } else if c.has_word("rule") {
                Alter::Rule
            } else if c.has_word("security") {
                Alter::RowLevelSecurity
            } else {
                Alter::Other(first)
            }
        }
        "force" if c.done() => Alter::Force,
        "force" | "no" if c.has_word("security") => Alter::RowLevelSecurity,
        "no" | "inherit" => {
            c.eat(&["inherit"]);
            Alter::Inherit(c.name())
        }
        "owner" => Alter::Owner,
        "replica" => Alter::ReplicaIdentity,
        "cluster" => {
            c.eat(&["on"]);
            Alter::ClusterOn(c.ident())
        }
        "algorithm" => {
            c.eat_punct("=");
            Alter::Algorithm(c.word_at(0).unwrap_or_default().to_ascii_uppercase())
        }
        "lock" => {
            c.eat_punct("=");
            Alter::LockClause(c.word_at(0).unwrap_or_default().to_ascii_uppercase())
        }
        "convert" => Alter::ConvertCharset,
        "row_format" | "key_block_size" => Alter::RowFormat,
        "engine" => Alter::Engine,
        "default" | "character" | "charset" | "collate" => Alter::DefaultCharset,
        "auto_increment" => Alter::AutoIncrementValue,
        "comment" => Alter::Comment,
        _ => Alter::Other(first),
    }
}

fn add(mut c: Cur) -> Alter {
    if starts_constraint(&c) {
        return constraint(&mut c).map_or(Alter::Other("add".into()), |con| {
            Alter::AddConstraint(Box::new(con))
        });
    }
    c.eat(&["column"]);
    let if_not_exists = c.eat(&["if", "not", "exists"]);
    match column_def(&mut c) {
        Some(col) => Alter::AddColumn {
            col: Box::new(col),
            if_not_exists,
        },
        None => Alter::Other("add".into()),
    }
}

fn drop(mut c: Cur) -> Alter {
    if c.eat(&["constraint"]) || c.eat(&["check"]) {
        c.eat(&["if", "exists"]);
        let name = c.ident().unwrap_or_default();
        return Alter::DropConstraint {
            foreign_key: false,
            name,
        };
    }
    if c.eat(&["foreign", "key"]) {
        return Alter::DropConstraint {
            name: c.ident().unwrap_or_default(),
            foreign_key: true,
        };
    }
    if c.eat(&["primary", "key"]) {
        return Alter::DropPrimaryKey;
    }
    if c.eat(&["index"]) || c.eat(&["key"]) {
        return Alter::DropIndex(c.ident().unwrap_or_default());
    }
    if c.is(0, "default") || c.is(0, "partition") {
        return Alter::Other("drop".into());
    }
    c.eat(&["column"]);
    let if_exists = c.eat(&["if", "exists"]);
    Alter::DropColumn {
        name: c.ident().unwrap_or_default(),
        if_exists,
        cascade: c.eat(&["cascade"]),
    }
}

fn alter_column(mut c: Cur) -> Alter {
    let name = c.ident().unwrap_or_default();
    if c.eat(&["type"]) || c.eat(&["set", "data", "type"]) {
        let ty = type_name(&mut c);
        let collate = c.has_word("collate");
        let using = c.has_word("using");
        let using_plain = using && plain_using(&c, &name, &ty);
        return Alter::ColumnType {
            col: Box::new(ColumnDef {
                name: name.clone(),
                ty,
                ..ColumnDef::default()
            }),
            name,
            new_name: None,
            using,
            using_plain,
            collate,
            restated: false,
        };
    }
    if c.eat(&["set", "not", "null"]) {
        Alter::SetNotNull(name)
    } else if c.eat(&["drop", "not", "null"]) {
        Alter::DropNotNull(name)
    } else if c.eat(&["set", "default"]) {
        Alter::SetDefault(name)
    } else if c.eat(&["drop", "default"]) {
        Alter::DropDefault(name)
    } else if c.eat(&["set", "storage"]) || c.eat(&["set", "compression"]) {
        Alter::SetStorage(name)
    } else if c.eat(&["set", "statistics"])
        || c.is(0, "set") && c.is_punct(1, "(")
        || c.is(0, "reset")
    {
        Alter::SetStatistics(name)
    } else {
        Alter::Other("alter column".into())
    }
}

fn rename(mut c: Cur) -> Alter {
    if c.eat(&["to"]) || c.eat(&["as"]) {
        return Alter::RenameTo(c.name().unwrap_or_default());
    }
    if c.eat(&["constraint"]) || c.eat(&["index"]) || c.eat(&["key"]) {
        let from = c.ident().unwrap_or_default();
        c.eat(&["to"]);
        let to = c.ident().unwrap_or_default();
        return Alter::RenameConstraint { from, to };
    }
    c.eat(&["column"]);
    let from = c.ident().unwrap_or_default();
    c.eat(&["to"]);
    let to = c.ident().unwrap_or_default();
    Alter::RenameColumn { from, to }
}

fn set(mut c: Cur) -> Alter {
    if c.eat(&["logged"]) {
        Alter::SetLogged(true)
    } else if c.eat(&["unlogged"]) {
        Alter::SetLogged(false)
    } else if c.eat(&["tablespace"]) {
        Alter::SetTablespace(c.ident().unwrap_or_default())
    } else if c.eat(&["access", "method"]) {
        Alter::SetAccessMethod(c.ident().unwrap_or_default())
    } else if c.eat(&["schema"]) {
        Alter::SetSchema
    } else if c.is(0, "without") && c.is(1, "cluster") {
        Alter::ClusterOn(None)
    } else {
        Alter::SetParams(param_names(&mut c))
    }
}

/// The parameter names of `( a = 1, toast.b = 2 )` / `RESET ( a, b )`,
/// lower-cased (`toast.` kept): the lock level is per parameter.
pub(super) fn param_names(c: &mut Cur) -> Vec<String> {
    let Some(inner) = c.group() else {
        return Vec::new();
    };
    split_commas(c.text, inner)
        .into_iter()
        .filter_map(|p| {
            let mut e = Cur::new(c.text, p);
            let mut name = e.ident()?;
            if e.eat_punct(".") {
                name = format!("{name}.{}", e.ident()?);
            }
            Some(name)
        })
        .collect()
}

/// `USING col` or `USING col::newtype` / `CAST(col AS newtype)`: the
/// expression is the column itself, so PostgreSQL judges the change as if
/// no USING were written (binary-coercible or not).
fn plain_using(c: &Cur, col: &str, ty: &crate::sql::ops::TypeName) -> bool {
    let Some(at) = (c.i..c.toks.len()).find(|&i| {
        c.toks[i].kind == crate::sql::lexer::Tok::Word
            && c.raw(&c.toks[i]).eq_ignore_ascii_case("using")
    }) else {
        return false;
    };
    let rest = &c.toks[at + 1..];
    let mut e = Cur::new(c.text, rest);
    let is_col = |e: &mut Cur| e.ident().is_some_and(|n| n == col);
    if e.eat(&["cast"]) {
        let Some(inner) = e.group() else { return false };
        let mut g = Cur::new(c.text, inner);
        if !is_col(&mut g) || !g.eat(&["as"]) {
            return false;
        }
        let t = type_name(&mut g);
        return g.done() && e.done() && t.base == ty.base && t.args == ty.args;
    }
    e.eat_punct("(");
    if !is_col(&mut e) {
        return false;
    }
    e.eat_punct(")");
    if e.done() {
        return true;
    }
    if e.eat_punct("::") {
        let t = type_name(&mut e);
        return e.done() && t.base == ty.base && t.args == ty.args;
    }
    false
}

/// The table named by `ALTER TABLE [IF EXISTS] [ONLY] name [*]`.
pub fn alter_table_head(c: &mut Cur) -> Option<Name> {
    c.eat(&["if", "exists"]);
    c.eat(&["only"]);
    let n = c.name()?;
    c.eat_punct("*");
    Some(n)
}
