//! MySQL's and MariaDB's statement forms that act outside the scratch
//! database. A MySQL "database" is a schema: anything naming another one
//! (`USE`, `other_db.table`) is outside.
use super::gate::{Escape, Policy, View};
use crate::sql::lexer::Tok;
use crate::sql::ops::{Name, Op};

/// Stored programs and compound statements carry statements in their body.
fn compound(v: &View) -> bool {
    let routine = v.is(0, "create")
        && (1..v.toks.len().min(40)).any(|k| {
            ["procedure", "function", "trigger", "event"]
                .iter()
                .any(|o| v.is(k, o))
        });
    routine
        || ["begin", "if", "loop", "repeat", "while", "case", "for"]
            .iter()
            .any(|w| v.is(0, w))
}

/// Where a statement can start: the statement itself and, in a stored
/// program or compound statement, after each `;`, after the words that
/// open a block, a branch or a loop, after a label, after `FOR EACH ROW`,
/// and after a routine's parameter list and characteristics (a routine
/// body need not start with BEGIN).
pub fn starts(v: &View, body: bool) -> Vec<usize> {
    let mut out = vec![0];
    if !(body || compound(v)) {
        return out;
    }
    let depths = v.depths();
    for (i, depth) in depths.iter().enumerate() {
        let opens = v.punct(i, ";")
            || v.punct(i, ":")
            || [
                "begin", "atomic", "then", "else", "do", "loop", "repeat", "row",
            ]
            .iter()
            .any(|w| v.is(i, w))
            || (*depth == 0
                && (v.punct(i, ")")
                    || v.kind(i) == Some(Tok::Str)
                    || ["deterministic", "sql", "data", "invoker", "definer"]
                        .iter()
                        .any(|w| v.is(i, w))));
        if opens && i + 1 < v.toks.len() {
            out.push(i + 1);
        }
    }
    out
}

fn object(v: &View, i: usize) -> (usize, Option<String>) {
    let mut j = i + 1;
    loop {
        match v.word(j).as_deref() {
            Some("or" | "replace" | "aggregate" | "online" | "ignore") => j += 1,
            // `CREATE DEFINER = u@h PROCEDURE …`: the object follows the account.
            Some("definer") => {
                j = (j + 1..v.toks.len().min(j + 12))
                    .find(|&k| {
                        ["procedure", "function", "trigger", "event", "view"]
                            .iter()
                            .any(|o| v.is(k, o))
                    })
                    .unwrap_or(j + 1);
            }
            _ => return (j, v.word(j)),
        }
    }
}

pub fn head(v: &View, i: usize, policy: &Policy) -> Option<Escape> {
    let w = v.word(i)?;
    let verb = w.to_ascii_uppercase();
    let at = |what: String| Some(v.escape(i, what));
    match w.as_str() {
        "create" | "alter" | "drop" => {
            let (j, obj) = object(v, i);
            match obj?.as_str() {
                "database" | "schema" => at(format!(
                    "{verb} DATABASE acts on the server: the database it names is not the scratch database"
                )),
                o @ ("user" | "role") => at(format!(
                    "{verb} {}: accounts and roles belong to the whole server",
                    o.to_ascii_uppercase()
                )),
                "server" => at(format!(
                    "{verb} SERVER defines a connection to another server (FEDERATED, CONNECT, SPIDER)"
                )),
                o @ ("tablespace" | "logfile") => at(format!(
                    "{verb} {}: the server's data files, outside the scratch database",
                    o.to_ascii_uppercase()
                )),
                "function" if w == "create" => v.find_top(j, &["soname"]).map(|k| {
                    v.escape(
                        k,
                        "CREATE FUNCTION … SONAME loads a shared library into the server process",
                    )
                }),
                "table" => table_options(v, j),
                _ => None,
            }
        }
        "rename" if v.is(i + 1, "user") => at("RENAME USER changes the server's accounts".into()),
        "grant" | "revoke" => at(format!(
            "{verb} changes the server's accounts: privileges live in the server's own mysql database"
        )),
        "set" => set(v, i),
        "use" => {
            let db = v.ident(i + 1)?;
            (db != policy.database).then(|| {
                v.escape(
                    i,
                    format!("USE {db} switches the session to another database than the scratch one"),
                )
            })
        }
        "kill" => at("KILL ends another session or its statement".into()),
        "shutdown" | "restart" => at(format!("{verb} stops the server")),
        "flush" => at("FLUSH acts on the whole server (privileges, logs, every table)".into()),
        "reset" => at(format!("{verb} acts on the whole server (replication, caches, persisted settings)")),
        "purge" => at("PURGE removes the server's binary logs".into()),
        "binlog" => at("BINLOG replays binary-log events on the server".into()),
        "backup" => at("BACKUP acts on the whole server".into()),
        "change" if v.is(i + 1, "master") || v.is(i + 1, "replication") => {
            at("CHANGE MASTER/REPLICATION reconfigures the server's replication".into())
        }
        "start" | "stop"
            if ["slave", "replica", "all", "group_replication"]
                .iter()
                .any(|r| v.is(i + 1, r)) =>
        {
            at(format!("{verb} {} acts on the server's replication", v.raw(i + 1)))
        }
        "install" | "uninstall" => at(format!(
            "{verb} loads or unloads a plugin (a shared library) in the server"
        )),
        "load" if v.is(i + 1, "data") || v.is(i + 1, "xml") => at(
            "LOAD DATA/XML INFILE reads a file: on the server, or with LOCAL on the machine running verify"
                .into(),
        ),
        "xa" => at("XA transactions can outlive verify's session on the server".into()),
        _ => None,
    }
}

/// Pairs of reserved words that act outside wherever they appear.
pub fn anywhere(v: &View) -> Option<Escape> {
    (0..v.toks.len()).find_map(|k| {
        if v.is(k, "into") && (v.is(k + 1, "outfile") || v.is(k + 1, "dumpfile")) {
            return Some(v.escape(
                k,
                format!(
                    "INTO {} writes a file on the server",
                    v.raw(k + 1).to_ascii_uppercase()
                ),
            ));
        }
        ((v.is(k, "data") || v.is(k, "index")) && v.is(k + 1, "directory")).then(|| {
            v.escape(
                k,
                "DATA/INDEX DIRECTORY puts table files in a directory of the server's file system",
            )
        })
    })
}

/// Engines that reach outside the server's own tables.
fn table_options(v: &View, from: usize) -> Option<Escape> {
    let depths = v.depths();
    (from..v.toks.len()).find_map(|k| {
        if depths[k] != 0 {
            return None;
        }
        if v.is(k, "engine") {
            let e = if v.punct(k + 1, "=") { k + 2 } else { k + 1 };
            let name = v.ident(e)?;
            return matches!(name.as_str(), "connect" | "federated" | "federatedx" | "spider")
                .then(|| {
                    v.escape(
                        e,
                        format!("ENGINE={name} reads or writes data outside the scratch database (files or other servers)"),
                    )
                });
        }
        (v.is(k, "connection")
            && (v.punct(k + 1, "=") || v.kind(k + 1) == Some(Tok::Str)))
        .then(|| v.escape(k, "CONNECTION= points a table at another server"))
    })
}

/// SET GLOBAL / PERSIST, `@@global.`, passwords and default roles are the
/// server's; SET STATEMENT … FOR runs around verify's time limits.
fn set(v: &View, i: usize) -> Option<Escape> {
    if v.is(i + 1, "statement") {
        return Some(v.escape(
            i,
            "SET STATEMENT … FOR gives one statement its own variables (its own time limit among them)",
        ));
    }
    if v.is(i + 1, "password") || v.seq(i + 1, &["default", "role"]) {
        return Some(v.escape(i, "SET PASSWORD/DEFAULT ROLE changes the server's accounts"));
    }
    let depths = v.depths();
    let end = (i + 1..v.toks.len())
        .find(|&k| v.punct(k, ";"))
        .unwrap_or(v.toks.len());
    // Each assignment of the list starts after SET or a top-level comma.
    let elements = std::iter::once(i + 1).chain(
        (i + 1..end)
            .filter(|&k| depths[k] == depths[i] && v.punct(k, ","))
            .map(|k| k + 1),
    );
    let scopes = ["global", "persist", "persist_only"];
    for k in elements {
        let word = if v.punct(k, "@") && v.punct(k + 1, "@") && v.punct(k + 3, ".") {
            k + 2
        } else {
            k
        };
        if let Some(scope) = scopes.iter().find(|s| v.is(word, s)) {
            return Some(v.escape(
                word,
                format!(
                    "SET {}: a server-wide setting, for every session and database",
                    scope.to_ascii_uppercase()
                ),
            ));
        }
    }
    None
}

/// The SQL text of `PREPARE s FROM '…'` and `EXECUTE IMMEDIATE '…'`.
pub fn carries_code(v: &View, i: usize) -> bool {
    v.kind(i) == Some(Tok::Str)
        && i >= 2
        && ((v.is(i - 1, "from") && v.is(i.saturating_sub(3), "prepare"))
            || (v.is(i - 1, "immediate") && v.is(i - 2, "execute")))
}

pub fn call(name: &str) -> Option<String> {
    match name {
        "load_file" => Some("LOAD_FILE() reads a file on the server".into()),
        "sys_exec" | "sys_eval" => Some(format!(
            "{}() runs a shell command as the server's operating-system user",
            name.to_ascii_uppercase()
        )),
        _ => None,
    }
}

/// Tables of another database (`other_db.orders`) the statement acts on.
pub fn names(op: Option<&Op>, policy: &Policy, text: &str) -> Option<Escape> {
    let names: Vec<&Name> = match op? {
        Op::CreateTable { name, .. } | Op::CreateView { name, .. } => vec![name],
        Op::AlterTable { table, .. }
        | Op::CreateIndex { table, .. }
        | Op::Dml { table, .. }
        | Op::CreateTrigger { table, .. } => vec![table],
        Op::DropTable { names, .. } | Op::DropIndex { names, .. } => names.iter().collect(),
        Op::Truncate { tables, .. } | Op::Optimize { tables } | Op::Lock { tables, .. } => {
            tables.iter().collect()
        }
        Op::RenameTable { from, to } => vec![from, to],
        _ => Vec::new(),
    };
    let other = names
        .into_iter()
        .find(|n| n.schema.as_ref().is_some_and(|s| **s != *policy.database))?;
    let schema = other.schema.as_deref().unwrap_or_default().to_string();
    let v = View::new(text, policy.dialect, 0);
    let k = (0..v.toks.len())
        .find(|&k| v.ident(k).as_deref() == Some(schema.as_str()) && v.punct(k + 1, "."))
        .unwrap_or(0);
    Some(v.escape(
        k,
        format!(
            "acts on {}, a table of another database than the scratch one",
            other.display()
        ),
    ))
}
