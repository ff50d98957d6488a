//! `CREATE …`: tables (columns, constraints, partitions), indexes, views,
//! functions, domains, types, triggers, rules and policies.
use super::cursor::{self, Cur};
use super::{columns, objects};
use crate::sql::ops::{Alter, Constraint, ConstraintKind, Op};

pub fn create(mut c: Cur, my: bool) -> Option<Op> {
    let or_replace = c.eat(&["or", "replace"]);
    let mut unique = false;
    let mut temp = false;
    let mut kind = ConstraintKind::Index;
    loop {
        if c.eat(&["unique"]) {
            unique = true;
            kind = ConstraintKind::Unique;
        } else if c.eat(&["fulltext"]) {
            kind = ConstraintKind::Fulltext;
        } else if c.eat(&["spatial"]) {
            kind = ConstraintKind::Spatial;
        } else if c.eat(&["temp"]) || c.eat(&["temporary"]) {
            temp = true;
        } else if ["unlogged", "global", "local", "recursive"]
            .iter()
            .any(|k| c.eat(&[k]))
        {
        } else {
            break;
        }
    }
    let what = c.word_at(0)?;
    c.i += 1;
    Some(match what.as_str() {
        "table" => create_table(c, temp)?,
        "index" => {
            let concurrently = c.eat(&["concurrently"]);
            let if_not_exists = c.eat(&["if", "not", "exists"]);
            let name = if c.is(0, "on") { None } else { c.ident() };
            // MySQL: `CREATE INDEX i USING BTREE ON t`.
            if c.eat(&["using"]) {
                c.i += 1;
            }
            if !c.eat(&["on"]) {
                return None;
            }
            let only = c.eat(&["only"]);
            let table = c.name()?;
            let columns = {
                let mut peek = c;
                if peek.eat(&["using"]) {
                    peek.i += 1;
                }
                peek.group()
                    .map(|g| columns::idents(c.text, g))
                    .unwrap_or_default()
            };
            if my {
                let mut con = Constraint::new(name, kind);
                if let Some(g) = c.group() {
                    con.columns = columns::idents(c.text, g);
                }
                let mut actions = vec![Alter::AddConstraint(Box::new(con))];
                while !c.done() {
                    if let Some(w) = c.word_at(0).filter(|w| w == "algorithm" || w == "lock") {
                        c.i += 1;
                        c.eat_punct("=");
                        let v = c.word_at(0).unwrap_or_default().to_ascii_uppercase();
                        actions.push(if w == "lock" {
                            Alter::LockClause(v)
                        } else {
                            Alter::Algorithm(v)
                        });
                    }
                    c.i += 1;
                }
                return Some(Op::AlterTable { table, actions });
            }
            Op::CreateIndex {
                name,
                table,
                concurrently,
                unique,
                if_not_exists,
                kind,
                only,
                columns,
            }
        }
        "materialized" | "view" => {
            c.eat(&["view"]);
            objects::create_view(c, what == "materialized", or_replace)?
        }
        "function" | "procedure" => objects::create_function(c)?,
        "domain" => {
            let name = c.name()?;
            let constrained = c.has_word("check") || c.has_word("not");
            Op::CreateDomain { name, constrained }
        }
        "type" => Op::CreateType { name: c.name()? },
        "trigger" | "constraint" => objects::create_trigger(c)?,
        "rule" => {
            while !c.done() && !c.is(0, "to") {
                c.i += 1;
            }
            c.i += 1;
            Op::CreateRule { table: c.name()? }
        }
        "policy" => {
            c.ident()?;
            c.eat(&["on"]);
            Op::CreatePolicy { table: c.name()? }
        }
        _ => Op::Other,
    })
}

fn create_table(mut c: Cur, temp: bool) -> Option<Op> {
    let if_not_exists = c.eat(&["if", "not", "exists"]);
    let name = c.name()?;
    let mut columns = Vec::new();
    let mut constraints = Vec::new();
    let mut partition_of = None;
    let mut as_select = false;
    let mut default_partition = false;
    if c.eat(&["partition", "of"]) {
        partition_of = c.name().map(Box::new);
        default_partition = c.is(0, "default");
    } else if c.is(0, "as") || c.is(0, "like") {
        as_select = true;
    } else if let Some(inner) = c.group() {
        for el in cursor::split_commas(c.text, inner) {
            let mut e = Cur::new(c.text, el);
            if e.is(0, "like") {
                continue;
            }
            if columns::starts_constraint(&e) {
                constraints.extend(columns::constraint(&mut e));
            } else if let Some(col) = columns::column_def(&mut e) {
                columns.push(col);
            }
        }
        as_select = c.has_word("select");
    }
    let partitioned = c.has_word("partition") && c.has_word("by") && partition_of.is_none();
    Some(Op::CreateTable {
        name,
        if_not_exists,
        columns,
        constraints,
        partition_of,
        default_partition,
        partitioned,
        as_select,
        temp,
    })
}
