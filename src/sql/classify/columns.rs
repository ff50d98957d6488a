//! Column definitions, types and table constraints, as written in CREATE
//! TABLE and ALTER TABLE … ADD/MODIFY/CHANGE.
use super::cursor::{Cur, unquote};
use crate::sql::lexer::{Tok, Token};
use crate::sql::ops::{ColumnDef, Constraint, ConstraintKind, DefaultExpr, TypeName};

/// Words that end a column's type and start its constraints.
const COLUMN_CLAUSES: &[&str] = &[
    "not",
    "null",
    "default",
    "primary",
    "unique",
    "references",
    "check",
    "constraint",
    "generated",
    "collate",
    "auto_increment",
    "comment",
    "charset",
    "as",
    "first",
    "after",
    "on",
    "invisible",
    "visible",
    "storage",
    "compression",
    "key",
    "using",
];

/// Functions whose value differs per row: a default calling one rewrites
/// the table on PostgreSQL and is evaluated per row on MySQL.
const VOLATILE: &[&str] = &[
    "random",
    "gen_random_uuid",
    "uuid_generate_v1",
    "uuid_generate_v1mc",
    "uuid_generate_v4",
    "uuidv4",
    "uuidv7",
    "clock_timestamp",
    "timeofday",
    "nextval",
    "rand",
    "uuid",
    "uuid_short",
    "sysdate",
];

/// Starts of a table-level constraint (as opposed to a column).
pub fn starts_constraint(c: &Cur) -> bool {
    [
        "constraint",
        "primary",
        "unique",
        "foreign",
        "check",
        "exclude",
    ]
    .iter()
    .any(|k| c.is(0, k))
        || ["key", "index", "fulltext", "spatial"]
            .iter()
            .any(|k| c.is(0, k))
            && !c.is_punct(1, ",")
            && c.tok(1).is_some()
            && !is_type_word(c.word_at(1).as_deref())
}

fn is_type_word(w: Option<&str>) -> bool {
    matches!(
        w,
        Some("int" | "integer" | "bigint" | "text" | "varchar" | "boolean" | "uuid")
    )
}

/// Reads a type at the cursor.
pub fn type_name(c: &mut Cur) -> TypeName {
    let start = c.i;
    let mut words = Vec::new();
    if let Some(n) = c.name() {
        words.push(n.name);
    }
    // Multi-word types: `character varying`, `double precision`,
    // `timestamp with time zone`, `int unsigned`.
    loop {
        if c.eat(&["varying"]) {
            words.push("varying".into());
        } else if c.eat(&["precision"]) {
            words.push("precision".into());
        } else if c.eat(&["unsigned"]) || c.eat(&["zerofill"]) || c.eat(&["signed"]) {
            words.push("unsigned".into());
        } else {
            break;
        }
    }
    let mut args = Vec::new();
    let mut members = Vec::new();
    if let Some(inner) = c.group() {
        for t in inner {
            let raw = &c.text[t.start..t.end];
            match t.kind {
                Tok::Number => args.push(raw.parse().unwrap_or(0)),
                Tok::Str => members.push(unquote(raw)),
                _ => {}
            }
        }
    }
    let mut tz = None;
    if c.eat(&["with", "time", "zone"]) {
        tz = Some(true);
    } else if c.eat(&["without", "time", "zone"]) {
        tz = Some(false);
    }
    let mut array = false;
    while c.is_punct(0, "[") {
        array = true;
        while let Some(t) = c.bump() {
            if c.raw(t) == "]" {
                break;
            }
        }
    }
    if c.eat(&["array"]) {
        array = true;
    }
    let joined = words.join(" ");
    let base = match joined.as_str() {
        "int" | "integer" | "int4" => "integer",
        "int8" => "bigint",
        "int2" => "smallint",
        "serial4" => "serial",
        "serial8" => "bigserial",
        "serial2" => "smallserial",
        "character varying" | "varchar" | "varchar2" | "nvarchar" => "varchar",
        "character" | "char" | "bpchar" | "nchar" => "char",
        "decimal" | "numeric" => "numeric",
        "bool" | "boolean" => "boolean",
        "float8" | "double precision" | "double" => "double",
        "float4" | "real" => "real",
        "timestamptz" => "timestamptz",
        "timestamp" if tz == Some(true) => "timestamptz",
        "timetz" => "timetz",
        "time" if tz == Some(true) => "timetz",
        other => other,
    }
    .to_string();
    let raw = c.text_of(&c.toks[start..c.i]).to_string();
    TypeName {
        base,
        args,
        members,
        array,
        raw,
    }
}

/// A column definition at the cursor: name, type, clauses up to the end of
/// the slice the cursor covers.
pub fn column_def(c: &mut Cur) -> Option<ColumnDef> {
    let name = c.ident()?;
    let mut col = ColumnDef {
        name,
        ..ColumnDef::default()
    };
    if !c.done() && !COLUMN_CLAUSES.iter().any(|k| c.is(0, k)) {
        col.ty = type_name(c);
    }
    while !c.done() {
        if c.eat(&["not", "null"]) {
            col.not_null = true;
        } else if c.eat(&["null"]) {
        } else if c.eat(&["default"]) {
            col.default = Some(default_expr(c));
        } else if c.eat(&["primary", "key"]) {
            col.primary_key = true;
            col.not_null = true;
        } else if c.eat(&["unique"]) {
            c.eat(&["key"]);
            col.unique = true;
        } else if c.eat(&["references"]) {
            col.references = c.name();
            col.ref_column = c.group().and_then(|g| idents(c.text, g).into_iter().next());
        } else if c.eat(&["check"]) {
            let names = c.group().map(|g| idents(c.text, g)).unwrap_or_default();
            col.checks.push(names);
        } else if c.eat(&["generated"]) {
            let mut saw_identity = false;
            while !c.done() && !c.is_punct(0, "(") {
                saw_identity |= c.is(0, "identity");
                c.i += 1;
                if saw_identity {
                    break;
                }
            }
            if saw_identity {
                col.identity = true;
                c.group();
            } else {
                generated(c, &mut col);
            }
        } else if c.is(0, "as") && c.is_punct(1, "(") {
            c.i += 1;
            generated(c, &mut col);
        } else if c.eat(&["auto_increment"]) || c.eat(&["autoincrement"]) {
            col.auto_increment = true;
        } else if c.eat(&["first"]) || c.eat(&["after"]) {
            col.positioned = true;
        } else if c.eat(&["character", "set"]) || c.eat(&["charset"]) {
            col.charset = c.ident();
        } else {
            c.i += 1;
        }
    }
    Some(col)
}

fn generated(c: &mut Cur, col: &mut ColumnDef) {
    c.group();
    // PostgreSQL < 18 only has STORED; MySQL defaults to VIRTUAL.
    if c.eat(&["stored"]) || c.eat(&["persistent"]) {
        col.generated_stored = true;
    } else {
        c.eat(&["virtual"]);
    }
}

fn default_expr(c: &mut Cur) -> DefaultExpr {
    let start = c.i;
    let expression = c.is_punct(0, "(");
    let mut volatile = false;
    let mut calls = Vec::new();
    let mut depth = 0i32;
    while let Some(t) = c.tok(0) {
        let raw = c.raw(t);
        if depth == 0
            && t.kind == Tok::Word
            && c.i > start
            && COLUMN_CLAUSES.contains(&raw.to_ascii_lowercase().as_str())
        {
            break;
        }
        if t.kind == Tok::Word && c.is_punct(1, "(") {
            let name = raw.to_ascii_lowercase();
            volatile |= VOLATILE.contains(&name.as_str());
            // A type's modifier (`varchar(10)`, `character varying(10)`)
            // after a cast is not a call.
            let after_cast = c.i > 0 && c.raw(&c.toks[c.i - 1]) == "::";
            if !after_cast && !matches!(name.as_str(), "varying" | "precision") {
                calls.push(name);
            }
        }
        if t.kind == Tok::Punct {
            match raw {
                "(" => depth += 1,
                ")" => depth -= 1,
                _ => {}
            }
        }
        c.i += 1;
    }
    DefaultExpr {
        raw: c.text_of(&c.toks[start..c.i]).to_string(),
        volatile,
        expression,
        calls,
    }
}

/// A table constraint at the cursor (after `ADD` or inside CREATE TABLE).
pub fn constraint(c: &mut Cur) -> Option<Constraint> {
    let mut name = None;
    if c.eat(&["constraint"]) {
        name = c.ident();
    }
    let kind = if c.eat(&["primary", "key"]) {
        ConstraintKind::PrimaryKey
    } else if c.eat(&["unique"]) {
        if !c.eat(&["key"]) {
            c.eat(&["index"]);
        }
        ConstraintKind::Unique
    } else if c.eat(&["foreign", "key"]) {
        ConstraintKind::ForeignKey
    } else if c.eat(&["check"]) {
        ConstraintKind::Check
    } else if c.eat(&["exclude"]) {
        ConstraintKind::Exclude
    } else if c.eat(&["not", "null"]) {
        ConstraintKind::NotNull
    } else if c.eat(&["fulltext"]) {
        let _ = c.eat(&["key"]) || c.eat(&["index"]);
        ConstraintKind::Fulltext
    } else if c.eat(&["spatial"]) {
        let _ = c.eat(&["key"]) || c.eat(&["index"]);
        ConstraintKind::Spatial
    } else if c.eat(&["key"]) || c.eat(&["index"]) {
        ConstraintKind::Index
    } else {
        return None;
    };
    let mut con = Constraint::new(name, kind);
    // MySQL names indexes after the kind: `UNIQUE KEY uk (a)`.
    if !c.is_punct(0, "(")
        && !c.is(0, "using")
        && kind != ConstraintKind::NotNull
        && let Some(n) = c.ident()
        && con.name.is_none()
    {
        con.name = Some(n);
    }
    if kind == ConstraintKind::NotNull
        && let Some(col) = c.ident()
    {
        con.columns.push(col);
    }
    c.eat(&["nulls", "not", "distinct"]);
    if kind == ConstraintKind::Exclude {
        // `EXCLUDE [USING method] (elem WITH op, …)`: each element named as
        // the server names an index column (`ChooseIndexColumnNames`).
        if c.eat(&["using"]) {
            c.i += 1;
        }
        if let Some(inner) = c.group() {
            con.columns = super::cursor::split_commas(c.text, inner)
                .into_iter()
                .filter_map(|e| exclude_element(c.text, e))
                .collect();
        }
    } else if c.eat(&["using", "index"]) {
        con.using_index = true;
        con.index = c.ident();
    } else if let Some(inner) = c.group() {
        con.columns = idents(c.text, inner);
        if kind == ConstraintKind::Check {
            con.is_not_null_of = is_not_null_check(c.text, inner);
        }
    }
    if c.eat(&["references"]) {
        con.references = c.name();
        if let Some(g) = c.group() {
            con.ref_columns = idents(c.text, g);
        }
    }
    while !c.done() {
        if c.eat(&["not", "valid"]) {
            con.not_valid = true;
        } else {
            c.i += 1;
        }
    }
    Some(con)
}

/// An EXCLUDE element's name in the index: its column, or for an
/// expression the function it calls (`lower(x)` → `lower`), else `expr`.
fn exclude_element(text: &str, toks: &[Token]) -> Option<String> {
    let first = toks.first()?;
    if first.kind == Tok::Punct && &text[first.start..first.end] == "(" {
        let inner = &toks[1..];
        let call = inner.len() >= 2
            && matches!(inner[0].kind, Tok::Word | Tok::QuotedIdent)
            && inner[1].kind == Tok::Punct
            && &text[inner[1].start..inner[1].end] == "(";
        // `(f(x))`: the call must be the whole expression.
        let whole = call && {
            let mut depth = 0i32;
            let mut end = None;
            for (i, t) in inner.iter().enumerate().skip(1) {
                match (t.kind, &text[t.start..t.end]) {
                    (Tok::Punct, "(") => depth += 1,
                    (Tok::Punct, ")") => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            end.is_some_and(|e| {
                inner
                    .get(e + 1)
                    .is_some_and(|t| &text[t.start..t.end] == ")")
            })
        };
        return Some(if whole {
            idents(text, &inner[..1]).into_iter().next()?
        } else {
            "expr".to_string()
        });
    }
    idents(text, &toks[..1]).into_iter().next()
}

pub(super) fn idents(text: &str, toks: &[Token]) -> Vec<String> {
    toks.iter()
        .filter(|t| matches!(t.kind, Tok::Word | Tok::QuotedIdent))
        .map(|t| {
            let raw = &text[t.start..t.end];
            if t.kind == Tok::QuotedIdent {
                unquote(raw)
            } else {
                raw.to_ascii_lowercase()
            }
        })
        .filter(|w| {
            !matches!(
                w.as_str(),
                "asc" | "desc" | "with" | "nulls" | "first" | "last"
            )
        })
        .collect()
}

/// `col IS NOT NULL` — the CHECK that lets SET NOT NULL skip its scan.
fn is_not_null_check(text: &str, toks: &[Token]) -> Option<String> {
    let words: Vec<String> = toks
        .iter()
        .map(|t| text[t.start..t.end].to_ascii_lowercase())
        .collect();
    match words.as_slice() {
        [col, is, not, null] if is == "is" && not == "not" && null == "null" => {
            Some(col.trim_matches(['"', '`']).to_string())
        }
        _ => None,
    }
}
