//! Statements on objects other than tables whose locks land on tables or
//! on the object itself: views, functions (their volatility decides a
//! default's rewrite; their triggers go with them), triggers, policies,
//! sequences, index renames, ANALYZE, and DML behind a `WITH`.
use super::cursor::Cur;
use crate::sql::lexer::Tok;
use crate::sql::ops::Op;

/// `CREATE [OR REPLACE] [MATERIALIZED] VIEW name … AS query`: the names
/// the query mentions are its possible sources (for `DROP … CASCADE`).
pub fn create_view(mut c: Cur, materialized: bool, or_replace: bool) -> Option<Op> {
    c.eat(&["if", "not", "exists"]);
    let name = c.name()?;
    let mut deps: Vec<String> = c.toks[c.i..]
        .iter()
        .filter(|t| matches!(t.kind, Tok::Word | Tok::QuotedIdent))
        .map(|t| match t.kind {
            Tok::QuotedIdent => super::cursor::unquote(c.raw(t)),
            _ => c.raw(t).to_ascii_lowercase(),
        })
        .filter(|w| *w != name.name)
        .collect();
    deps.sort();
    deps.dedup();
    Some(Op::CreateView {
        name,
        materialized,
        or_replace,
        deps,
    })
}

/// `CREATE [OR REPLACE] FUNCTION|PROCEDURE name (…) … [IMMUTABLE|STABLE]`.
/// The body is one string token, so only the clauses are read.
pub fn create_function(mut c: Cur) -> Option<Op> {
    let name = c.name()?;
    let volatility = if c.has_word("immutable") {
        'i'
    } else if c.has_word("stable") {
        's'
    } else {
        'v'
    };
    let bodies: Vec<&str> = c.toks[c.i..]
        .iter()
        .filter(|t| matches!(t.kind, Tok::Str | Tok::DollarStr))
        .map(|t| c.raw(t))
        .collect();
    let refreshes = bodies.iter().flat_map(|b| refreshes(b)).collect();
    let mut writes: Vec<String> = bodies.iter().flat_map(|b| writes(b)).collect();
    writes.sort();
    writes.dedup();
    Some(Op::CreateFunction {
        name,
        volatility,
        refreshes,
        writes,
    })
}

fn body_words(body: &str) -> Vec<String> {
    body.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '.'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Tables a function body writes: `INSERT INTO t`, `UPDATE [ONLY] t`,
/// `DELETE FROM [ONLY] t` (a trigger calling it takes ROW EXCLUSIVE there).
/// `NEW` / `OLD` are records, not tables; `ON CONFLICT DO UPDATE SET` is
/// the INSERT's own table.
fn writes(body: &str) -> Vec<String> {
    let words = body_words(body);
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let at = match w.as_str() {
            "insert" if words.get(i + 1).is_some_and(|x| x == "into") => i + 2,
            "delete" if words.get(i + 1).is_some_and(|x| x == "from") => i + 2,
            "update" if i == 0 || words[i - 1] != "do" && words[i - 1] != "for" => i + 1,
            _ => continue,
        };
        let at = if words.get(at).is_some_and(|x| x == "only") {
            at + 1
        } else {
            at
        };
        if let Some(n) = words.get(at) {
            let n = n.rsplit('.').next().unwrap_or(n);
            // `TG_OP = 'UPDATE' THEN`, `BEFORE UPDATE OR DELETE`: the verb
            // as a word, not a statement.
            let keyword = matches!(
                n,
                "new"
                    | "old"
                    | "set"
                    | "then"
                    | "or"
                    | "and"
                    | "of"
                    | "on"
                    | "else"
                    | "end"
                    | "when"
                    | "is"
                    | "in"
            );
            if !keyword && !n.is_empty() {
                out.push(n.to_string());
            }
        }
    }
    out
}

/// `REFRESH MATERIALIZED VIEW [CONCURRENTLY] name` in a function body:
/// what a trigger calling the function locks.
fn refreshes(body: &str) -> Vec<(String, bool)> {
    let words = body_words(body);
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if w == "refresh"
            && words.get(i + 1).is_some_and(|x| x == "materialized")
            && words.get(i + 2).is_some_and(|x| x == "view")
        {
            let conc = words.get(i + 3).is_some_and(|x| x == "concurrently");
            if let Some(n) = words.get(i + if conc { 4 } else { 3 }) {
                let n = n.rsplit('.').next().unwrap_or(n).to_string();
                out.push((n, conc));
            }
        }
    }
    out
}

/// `DROP [MATERIALIZED] VIEW|FUNCTION [IF EXISTS] a, b [CASCADE]`.
pub fn drop_objects(mut c: Cur, what: &str) -> Option<Op> {
    if what == "materialized" {
        c.eat(&["view"]);
    }
    c.eat(&["if", "exists"]);
    let mut list = Vec::new();
    while let Some(n) = c.name() {
        // A function's argument list.
        c.group();
        list.push(n);
        if !c.eat_punct(",") {
            break;
        }
    }
    let cascade = c.has_word("cascade");
    Some(match what {
        "function" | "procedure" | "routine" => Op::DropFunction {
            names: list,
            cascade,
        },
        _ => Op::DropView {
            names: list,
            materialized: what == "materialized",
            cascade,
        },
    })
}

/// `CREATE [CONSTRAINT] TRIGGER … ON table … EXECUTE FUNCTION|PROCEDURE f(…)`.
pub fn create_trigger(mut c: Cur) -> Option<Op> {
    let name = c.ident().unwrap_or_default();
    while !c.done() && !c.is(0, "on") {
        c.i += 1;
    }
    c.i += 1;
    let table = c.name()?;
    let mut function = None;
    while !c.done() {
        if c.eat(&["execute", "function"]) || c.eat(&["execute", "procedure"]) {
            function = c.name().map(|n| n.name);
            break;
        }
        c.i += 1;
    }
    Some(Op::CreateTrigger {
        table,
        name,
        function,
    })
}

/// `ALTER TRIGGER t ON table …`, `ALTER|DROP POLICY p ON table`.
pub fn on_table(mut c: Cur, what: &str, drop: bool) -> Option<Op> {
    c.eat(&["if", "exists"]);
    c.ident()?;
    if !c.eat(&["on"]) {
        return None;
    }
    let table = c.name()?;
    Some(match what {
        "trigger" => Op::AlterTrigger { table },
        _ => Op::Policy { table, drop },
    })
}

/// `ALTER SEQUENCE [IF EXISTS] name …`: OWNED BY, RENAME, SET SCHEMA and
/// OWNER change the catalog only; every other option changes the sequence.
pub fn alter_sequence(mut c: Cur) -> Option<Op> {
    c.eat(&["if", "exists"]);
    let name = c.name()?;
    let catalog_only = c.is(0, "owned")
        || c.is(0, "rename")
        || c.is(0, "owner")
        || c.is(0, "set") && (c.is(1, "schema") || c.is(1, "logged") || c.is(1, "unlogged"));
    Some(Op::AlterSequence {
        name,
        options: !catalog_only && !c.done(),
    })
}

/// `ALTER INDEX [IF EXISTS] a RENAME TO b`, `ALTER INDEX parent ATTACH
/// PARTITION child`, `ALTER INDEX a SET (…)` / `RESET (…)`.
pub fn alter_index(mut c: Cur) -> Option<Op> {
    c.eat(&["if", "exists"]);
    let from = c.name()?;
    if c.eat(&["attach", "partition"]) {
        return Some(Op::AttachIndex {
            parent: from,
            child: c.name()?,
        });
    }
    if (c.is(0, "set") || c.is(0, "reset")) && c.is_punct(1, "(") {
        c.i += 1;
        return Some(Op::IndexParams {
            index: from,
            params: super::alter::param_names(&mut c),
        });
    }
    if !c.eat(&["rename", "to"]) {
        return Some(Op::Other);
    }
    Some(Op::RenameIndex {
        from,
        to: c.ident()?,
    })
}

/// `ANALYZE [VERBOSE] [(options)] [table [(cols)], …]`.
pub fn analyze(mut c: Cur) -> Op {
    c.group();
    c.eat(&["verbose"]);
    let mut tables = Vec::new();
    while let Some(n) = c.name() {
        c.group();
        tables.push(n);
        if !c.eat_punct(",") {
            break;
        }
    }
    Op::Analyze { tables }
}

/// `WITH a AS (…), b AS (…) UPDATE|INSERT|DELETE …`: the statement after
/// the common table expressions (a plain `WITH … SELECT` is `Other`).
/// Data-modifying statements inside the CTEs are not followed.
pub fn with(mut c: Cur) -> Option<Op> {
    c.eat(&["recursive"]);
    let mut cte_writes = Vec::new();
    loop {
        c.ident()?;
        c.group();
        if !c.eat(&["as"]) {
            return Some(Op::Other);
        }
        let _ = c.eat(&["not", "materialized"]) || c.eat(&["materialized"]);
        let inner = c.group()?;
        let mut q = Cur::new(c.text, inner);
        let target =
            if q.eat(&["insert", "into"]) || q.eat(&["update"]) || q.eat(&["delete", "from"]) {
                q.eat(&["only"]);
                q.name()
            } else {
                None
            };
        cte_writes.extend(target);
        if !c.eat_punct(",") {
            break;
        }
    }
    let verb = c.word_at(0).unwrap_or_default();
    c.i += 1;
    match verb.as_str() {
        "update" | "delete" | "insert" => dml(c, &verb, cte_writes),
        _ => Some(Op::Other),
    }
}

/// `UPDATE [ONLY] t …`, `DELETE [FROM] [ONLY] t …`, `INSERT|REPLACE
/// [IGNORE] [INTO] t …` with the cursor just past the verb, at the top
/// level or after a `WITH` (whose data-modifying CTEs' targets are
/// `cte_writes`). An UPDATE or DELETE without WHERE, and an
/// INSERT … SELECT, touch every row they can reach (`bulk`).
pub fn dml(mut c: Cur, verb: &str, cte_writes: Vec<crate::sql::ops::Name>) -> Option<Op> {
    let (verb, bulk_word, bulk_if) = match verb {
        "update" => {
            c.eat(&["only"]);
            ("UPDATE", "where", false)
        }
        "delete" => {
            c.eat(&["from"]);
            c.eat(&["only"]);
            ("DELETE", "where", false)
        }
        _ => {
            c.eat(&["ignore"]);
            c.eat(&["into"]);
            ("INSERT", "select", true)
        }
    };
    let table = c.name()?;
    Some(Op::Dml {
        table,
        verb,
        bulk: c.has_word(bulk_word) == bulk_if,
        cte_writes,
    })
}
