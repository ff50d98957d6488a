//! The token-level classifier: recognises what a statement does, its target
//! relations and the options that decide its locks, from tokens alone. It is
//! the one analysis path for every statement, so the facts are the same
//! whether or not sqlparser accepts the statement (sqlparser cannot parse
//! `DROP INDEX CONCURRENTLY`, `CLUSTER … USING`, `OPTIMIZE TABLE`, templated
//! SQL…). `None` means "not understood" (PC009 when sqlparser agrees).
mod alter;
mod columns;
mod create;
pub mod cursor;
mod objects;

use super::Dialect;
use super::lexer::{Tok, Token};
use super::ops::{Alter, Name, Op};
use cursor::Cur;

/// Statement verbs we recognise but that take no lock worth a rule.
const OTHER_VERBS: &[&str] = &[
    "select",
    "values",
    "comment",
    "grant",
    "revoke",
    "do",
    "call",
    "perform",
    "notify",
    "listen",
    "unlisten",
    "explain",
    "show",
    "use",
    "copy",
    "discard",
    "reset",
    "savepoint",
    "release",
    "prepare",
    "execute",
    "deallocate",
    "checkpoint",
    "security",
    "load",
    "import",
    "declare",
    "fetch",
    "close",
    "move",
    "flush",
    "kill",
    "handler",
    "xa",
    "unlock",
    "install",
    "uninstall",
    "source",
    "import",
    "pragma",
    "merge",
    "purge",
    "checksum",
    "repair",
    "check",
    "describe",
    "desc",
    "help",
];

/// Objects of CREATE/ALTER/DROP that exist in PostgreSQL or MySQL; an
/// unknown word there (`ALTER TABEL`) is a typo, not a statement.
const OBJECTS: &[&str] = &[
    "table",
    "tables",
    "index",
    "view",
    "materialized",
    "sequence",
    "function",
    "procedure",
    "type",
    "schema",
    "database",
    "role",
    "user",
    "group",
    "default",
    "extension",
    "domain",
    "system",
    "policy",
    "trigger",
    "publication",
    "subscription",
    "server",
    "aggregate",
    "collation",
    "conversion",
    "event",
    "foreign",
    "language",
    "large",
    "operator",
    "routine",
    "rule",
    "statistics",
    "tablespace",
    "text",
    "owned",
    "access",
    "cast",
    "transform",
    "instance",
    "logfile",
    "resource",
    "spatial",
    "algorithm",
    "definer",
    "sql",
    "temp",
    "temporary",
    "unlogged",
    "unique",
    "fulltext",
    "or",
    "global",
    "local",
    "recursive",
    "constraint",
    "online",
    "ignore",
    "if",
    "policy",
    "procedural",
    "trusted",
    "user",
];

pub fn classify(text: &str, toks: &[Token], dialect: Dialect) -> Option<Op> {
    if !cursor::well_formed(text, toks) {
        return None;
    }
    let mut c = Cur::new(text, toks);
    let verb = c.word_at(0)?;
    c.i += 1;
    let my = dialect.is_mysql();
    Some(match verb.as_str() {
        "begin" if c.done() || c.is(0, "transaction") || c.is(0, "work") => Op::Begin,
        "start" if c.is(0, "transaction") => Op::Begin,
        "commit" | "end" => Op::Commit,
        "rollback" | "abort" => Op::Rollback,
        "set" => set(c),
        "select" if c.is(0, "set_config") => set_config(c),
        "with" => objects::with(c).unwrap_or(Op::Other),
        "analyze" | "analyse" => objects::analyze(c),
        v if OTHER_VERBS.contains(&v) => Op::Other,
        "create" | "alter" | "drop"
            if !c.word_at(0).is_some_and(|w| OBJECTS.contains(&w.as_str())) =>
        {
            return None;
        }
        "create" => create::create(c, my)?,
        "alter" => alter(c, my)?,
        "drop" => drop(c, my)?,
        "truncate" => {
            c.eat(&["table"]);
            c.eat(&["only"]);
            Op::Truncate {
                tables: names(&mut c),
                cascade: c.has_word("cascade"),
            }
        }
        "reindex" => {
            c.group();
            let table_level = !c.is(0, "index");
            c.i += 1;
            let concurrently = c.eat(&["concurrently"]);
            Op::Reindex {
                target: c.name()?,
                table_level,
                concurrently,
            }
        }
        "cluster" => {
            c.eat(&["verbose"]);
            Op::Cluster { table: c.name() }
        }
        "vacuum" => {
            let opts = c.group().map(|g| c.text_of(g).to_ascii_lowercase());
            let mut full = opts.is_some_and(|o| o.contains("full"));
            while let Some(w) = c.word_at(0) {
                if !matches!(w.as_str(), "full" | "freeze" | "verbose" | "analyze") {
                    break;
                }
                full |= w == "full";
                c.i += 1;
            }
            Op::Vacuum {
                tables: names(&mut c),
                full,
            }
        }
        "refresh" => {
            c.eat(&["materialized", "view"]);
            let concurrently = c.eat(&["concurrently"]);
            Op::RefreshMatView {
                name: c.name()?,
                concurrently,
            }
        }
        "lock" => {
            let _ = c.eat(&["table"]) || c.eat(&["tables"]);
            c.eat(&["only"]);
            let tables = names(&mut c);
            let mode = if c.eat(&["in"]) {
                let mut words = Vec::new();
                while let Some(w) = c.word_at(0) {
                    c.i += 1;
                    if w == "mode" {
                        break;
                    }
                    words.push(w.to_ascii_uppercase());
                }
                words.join(" ")
            } else {
                "ACCESS EXCLUSIVE".into()
            };
            Op::Lock { tables, mode }
        }
        "update" | "delete" | "insert" | "replace" => objects::dml(c, &verb, Vec::new())?,
        "rename" if my => {
            c.eat(&["table"]);
            let from = c.name()?;
            c.eat(&["to"]);
            Op::RenameTable {
                from,
                to: c.name()?,
            }
        }
        "optimize" => {
            let _ = c.eat(&["no_write_to_binlog"]) || c.eat(&["local"]);
            c.eat(&["table"]);
            Op::Optimize {
                tables: names(&mut c),
            }
        }
        _ => return None,
    })
}

fn names(c: &mut Cur) -> Vec<Name> {
    let mut out = Vec::new();
    while let Some(n) = c.name() {
        out.push(n);
        c.eat_punct("*");
        if !c.eat_punct(",") {
            break;
        }
        c.eat(&["only"]);
    }
    out
}

fn value_text(c: &Cur, toks: &[Token]) -> String {
    c.text_of(toks)
        .trim()
        .trim_matches(['\'', '"'])
        .to_ascii_lowercase()
}

fn set(mut c: Cur) -> Op {
    let _ = c.eat(&["session"]) || c.eat(&["local"]) || c.eat(&["global"]);
    if c.eat(&["time", "zone"]) {
        let value = value_text(&c, &c.toks[c.i.min(c.toks.len())..]);
        return Op::Set {
            name: "timezone".into(),
            value,
        };
    }
    let mut name = String::new();
    while let Some(t) = c.tok(0) {
        let raw = c.raw(t);
        if raw == "=" || raw.eq_ignore_ascii_case("to") {
            c.i += 1;
            break;
        }
        name.push_str(&raw.to_ascii_lowercase());
        c.i += 1;
    }
    let name = name
        .trim_start_matches("@@session.")
        .trim_start_matches("@@")
        .to_string();
    let value = value_text(&c, &c.toks[c.i.min(c.toks.len())..]);
    Op::Set { name, value }
}

/// `SELECT set_config('lock_timeout', '5s', false)`.
fn set_config(mut c: Cur) -> Op {
    c.i += 1;
    let args: Vec<String> = c
        .group()
        .map(|g| {
            g.iter()
                .filter(|t| t.kind == Tok::Str)
                .map(|t| value_text(&c, std::slice::from_ref(t)))
                .collect()
        })
        .unwrap_or_default();
    match args.as_slice() {
        [name, value, ..] => Op::Set {
            name: name.clone(),
            value: value.clone(),
        },
        _ => Op::Other,
    }
}

fn alter(mut c: Cur, my: bool) -> Option<Op> {
    let what = c.word_at(0)?;
    c.i += 1;
    Some(match what.as_str() {
        "table" => {
            if my {
                let _ = c.eat(&["online"]) || c.eat(&["ignore"]);
            }
            let table = alter::alter_table_head(&mut c)?;
            let rest = &c.toks[c.i..];
            Op::AlterTable {
                table,
                actions: alter::actions(c.text, rest),
            }
        }
        "online" | "ignore" if my => return alter(c, my),
        "type" => {
            let type_name = c.name()?;
            if c.eat(&["add", "value"]) {
                c.eat(&["if", "not", "exists"]);
                let value = c
                    .tok(0)
                    .map(|t| cursor::unquote(c.raw(t)))
                    .unwrap_or_default();
                Op::AddEnumValue { type_name, value }
            } else {
                Op::Other
            }
        }
        "schema" | "database" if c.has_word("rename") => Op::RenameSchema,
        "trigger" | "policy" => objects::on_table(c, &what, false).unwrap_or(Op::Other),
        "sequence" => objects::alter_sequence(c)?,
        "index" => objects::alter_index(c)?,
        _ => Op::Other,
    })
}

fn drop(mut c: Cur, my: bool) -> Option<Op> {
    let what = c.word_at(0)?;
    c.i += 1;
    Some(match what.as_str() {
        "table" | "tables" => {
            let if_exists = c.eat(&["if", "exists"]);
            Op::DropTable {
                names: names(&mut c),
                if_exists,
                cascade: c.eat(&["cascade"]),
            }
        }
        "index" => {
            let concurrently = c.eat(&["concurrently"]);
            let if_exists = c.eat(&["if", "exists"]);
            let names = names(&mut c);
            let table = if c.eat(&["on"]) { c.name() } else { None };
            if my && let Some(table) = table {
                let idx = names.first().map(|n| n.name.clone()).unwrap_or_default();
                return Some(Op::AlterTable {
                    table,
                    actions: vec![Alter::DropIndex(idx)],
                });
            }
            Op::DropIndex {
                names,
                table,
                concurrently,
                if_exists,
            }
        }
        "schema" | "database" => {
            c.eat(&["if", "exists"]);
            Op::DropSchema {
                name: c.name()?,
                database: what == "database",
            }
        }
        "trigger" => {
            c.eat(&["if", "exists"]);
            let name = c.name()?.name;
            let table = if c.eat(&["on"]) { c.name() } else { None };
            Op::DropTrigger { table, name }
        }
        "view" | "materialized" | "function" | "procedure" | "routine" => {
            objects::drop_objects(c, &what)?
        }
        "policy" => objects::on_table(c, "policy", true).unwrap_or(Op::Other),
        _ => Op::Other,
    })
}
