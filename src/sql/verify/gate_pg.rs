//! PostgreSQL's statement forms that act outside the scratch database.
use super::gate::{Escape, Policy, View};

/// Settings verify holds itself; a migration's SET or RESET of them is skipped.
pub const TIMEOUTS: &[&str] = &[
    "statement_timeout",
    "lock_timeout",
    "idle_in_transaction_session_timeout",
    "idle_session_timeout",
    "transaction_timeout",
];

/// Where a statement can start: the statement itself, after `;` inside a
/// `BEGIN ATOMIC` body, and — in a PL/pgSQL or SQL function body — after
/// the words that open a block or a branch.
pub fn starts(v: &View, body: bool) -> Vec<usize> {
    let mut out = vec![0];
    for i in 0..v.toks.len() {
        let opens = v.punct(i, ";")
            || v.is(i, "atomic")
            || (body
                && (v.is(i, "begin")
                    || v.is(i, "then")
                    || v.is(i, "else")
                    || v.is(i, "loop")
                    || (v.punct(i, ">") && v.punct(i.wrapping_sub(1), ">"))));
        if opens && i + 1 < v.toks.len() {
            out.push(i + 1);
        }
    }
    out
}

/// The statement kind words that may precede the object of CREATE/ALTER/DROP.
const MODIFIERS: &[&str] = &["or", "replace", "trusted", "procedural", "unique"];

fn object(v: &View, i: usize) -> (usize, Option<String>) {
    let mut j = i + 1;
    while v.word(j).is_some_and(|w| MODIFIERS.contains(&w.as_str())) {
        j += 1;
    }
    (j, v.word(j))
}

/// Languages whose functions run with the server's operating-system rights.
fn untrusted_language(lang: &str) -> bool {
    let l = lang.to_ascii_lowercase();
    matches!(l.as_str(), "c" | "internal" | "plsh" | "plr" | "javau")
        || (l.starts_with("pl") && l.ends_with('u') && l.len() > 3)
}

fn language(v: &View, from: usize) -> Option<(usize, String)> {
    let at = v.find_top(from, &["language"])?;
    let lang = v.ident(at + 1).or_else(|| v.string(at + 1))?;
    untrusted_language(&lang).then_some((at + 1, lang))
}

pub fn head(v: &View, i: usize, policy: &Policy) -> Option<Escape> {
    if v.punct(i, "\\") {
        let cmd = v.raw(i + 1);
        return Some(v.escape(
            i,
            format!(
                "\\{cmd} is a psql command, not SQL: verify sends statements to the server, and a \\connect would leave the scratch database"
            ),
        ));
    }
    let w = v.word(i)?;
    let verb = w.to_ascii_uppercase();
    match w.as_str() {
        "create" | "alter" | "drop" => {
            let (j, obj) = object(v, i);
            let obj = obj?;
            let at = |what: String| Some(v.escape(i, what));
            match obj.as_str() {
                "database" => at(format!(
                    "{verb} DATABASE acts on the server: the database it names is not the scratch database"
                )),
                "user" if v.is(j + 1, "mapping") => at(format!(
                    "{verb} USER MAPPING stores credentials for a connection to another server"
                )),
                "role" | "user" | "group" => at(format!(
                    "{verb} {}: roles belong to the whole server and are shared by every database on it",
                    obj.to_ascii_uppercase()
                )),
                "tablespace" => at(format!(
                    "{verb} TABLESPACE: a tablespace is a directory on the server's file system"
                )),
                "subscription" => at(format!(
                    "{verb} SUBSCRIPTION connects to another server to replicate from it"
                )),
                "server" => at(format!(
                    "{verb} SERVER defines a connection to another server (postgres_fdw, dblink)"
                )),
                "foreign" if v.is(j + 1, "data") => at(format!(
                    "{verb} FOREIGN DATA WRAPPER: foreign data wrappers reach outside the database"
                )),
                "foreign" if v.is(j + 1, "table") && w == "create" => at(
                    "CREATE FOREIGN TABLE reads another server's data through a foreign server".into(),
                ),
                "system" if w == "alter" => at(
                    "ALTER SYSTEM writes the server's configuration (postgresql.auto.conf) for every database"
                        .into(),
                ),
                "language" if w == "create" => at(
                    "CREATE LANGUAGE: a procedural language runs code inside the server process".into(),
                ),
                "owned" if w == "drop" => at(
                    "DROP OWNED also revokes the role's privileges on shared objects (databases, tablespaces)".into(),
                ),
                "extension" if w != "drop" => {
                    let mut k = j + 1;
                    if v.seq(k, &["if", "not", "exists"]) {
                        k += 3;
                    }
                    let name = v.ident(k)?;
                    (!policy.extension_allowed(&name)).then(|| {
                        v.escape(
                            k,
                            format!(
                                "{verb} EXTENSION {name}: not on verify's extension allow-list (an extension's script runs as a superuser and may reach outside the database; --allow-extension {name} adds it)"
                            ),
                        )
                    })
                }
                "function" | "procedure" if w == "create" => {
                    language(v, j).map(|(k, lang)| {
                        v.escape(
                            k,
                            format!(
                                "LANGUAGE {lang}: an untrusted language runs the function's code with the server's operating-system rights"
                            ),
                        )
                    })
                }
                _ => None,
            }
        }
        "do" => language(v, i + 1).map(|(k, lang)| {
            v.escape(
                k,
                format!("DO … LANGUAGE {lang}: an untrusted language runs code with the server's operating-system rights"),
            )
        }),
        "grant" | "revoke" => grant(v, i, &verb),
        "reassign" => Some(v.escape(
            i,
            "REASSIGN OWNED changes the owner of shared objects (databases, tablespaces) too",
        )),
        "comment" | "security" => {
            let on = (i + 1..(i + 6).min(v.toks.len())).find(|&k| v.is(k, "on"))?;
            let obj = v.word(on + 1)?;
            matches!(obj.as_str(), "database" | "role" | "tablespace" | "subscription").then(|| {
                v.escape(
                    on + 1,
                    format!(
                        "{verb} ON {}: the object is shared by every database on the server",
                        obj.to_ascii_uppercase()
                    ),
                )
            })
        }
        "copy" => copy(v, i),
        "load" if v.kind(i + 1) == Some(crate::sql::lexer::Tok::Str) => Some(v.escape(
            i,
            "LOAD loads a shared library from the server's file system into the server process",
        )),
        "checkpoint" if i + 1 >= v.toks.len() || v.punct(i + 1, ";") => Some(v.escape(
            i,
            "CHECKPOINT acts on the whole server, not on the scratch database",
        )),
        "prepare" if v.is(i + 1, "transaction") => Some(v.escape(
            i,
            "PREPARE TRANSACTION leaves a prepared transaction on the server that outlives verify's session",
        )),
        "commit" | "rollback" if v.is(i + 1, "prepared") => Some(v.escape(
            i,
            format!("{verb} PREPARED ends a prepared transaction verify did not start"),
        )),
        "reset" | "discard" if v.is(i + 1, "all") => Some(v.escape(
            i,
            format!("{verb} ALL would drop the time limits verify holds the session to"),
        )),
        "import" if v.is(i + 1, "foreign") => Some(v.escape(
            i,
            "IMPORT FOREIGN SCHEMA reads another server's catalog through a foreign server",
        )),
        _ => None,
    }
}

/// GRANT/REVOKE of a role (no ON) changes role membership, which is the
/// server's; privileges ON a database, tablespace, parameter or foreign
/// server/wrapper are on shared objects.
fn grant(v: &View, i: usize, verb: &str) -> Option<Escape> {
    if v.is(i + 1, "option") {
        return None;
    }
    let target = if verb == "GRANT" { "to" } else { "from" };
    let on = v.find_top(i + 1, &["on"]);
    let to = v.find_top(i + 1, &[target]);
    match (on, to) {
        (Some(on), to) if to.is_none_or(|t| on < t) => {
            let obj = v.word(on + 1)?;
            matches!(
                obj.as_str(),
                "database" | "tablespace" | "parameter" | "foreign"
            )
            .then(|| {
                v.escape(
                    on + 1,
                    format!(
                        "{verb} … ON {}: privileges on an object shared by every database on the server",
                        obj.to_ascii_uppercase()
                    ),
                )
            })
        }
        _ => Some(v.escape(
            i,
            format!("{verb} of a role changes role membership, which belongs to the whole server"),
        )),
    }
}

/// `COPY … FROM/TO PROGRAM` runs a command; `COPY … FROM/TO 'file'` reads
/// or writes the server's file system. STDIN/STDOUT stay in the session.
fn copy(v: &View, i: usize) -> Option<Escape> {
    let dir = v.find_top(i + 1, &["from", "to"])?;
    let way = v.word(dir)?.to_ascii_uppercase();
    let target = dir + 1;
    if v.is(target, "stdin") || v.is(target, "stdout") {
        return None;
    }
    let what = if v.is(target, "program") {
        format!("COPY … {way} PROGRAM runs a shell command as the server's operating-system user")
    } else {
        let act = if way == "FROM" { "reads" } else { "writes" };
        format!("COPY … {way} a file {act} the server's file system")
    };
    Some(v.escape(target, what))
}

/// Literals that are code: DO bodies, function bodies after AS, and the
/// string of a PL/pgSQL `EXECUTE '…'` or `EXECUTE format('…', …)`.
pub fn carries_code(v: &View, i: usize) -> bool {
    use crate::sql::lexer::Tok;
    if !matches!(v.kind(i), Some(Tok::Str | Tok::DollarStr)) || i == 0 {
        return false;
    }
    let head_do = v.is(0, "do");
    let head_routine = v.is(0, "create") && {
        let (_, obj) = object(v, 0);
        matches!(obj.as_deref(), Some("function" | "procedure"))
    };
    (head_do && v.depths()[i] == 0)
        || (head_routine && v.is(i - 1, "as"))
        || v.is(i - 1, "execute")
        || (i >= 3 && v.punct(i - 1, "(") && v.is(i - 2, "format") && v.is(i - 3, "execute"))
}

/// Functions that act outside the scratch database.
pub fn call(name: &str) -> Option<String> {
    const FILES: &[&str] = &[
        "pg_read_file",
        "pg_read_binary_file",
        "pg_ls_dir",
        "pg_stat_file",
        "pg_ls_logdir",
        "pg_ls_waldir",
        "pg_ls_tmpdir",
        "pg_ls_archive_statusdir",
        "pg_ls_logicalsnapdir",
        "pg_ls_logicalmapdir",
        "pg_ls_replslotdir",
        "pg_file_write",
        "pg_file_sync",
        "pg_file_rename",
        "pg_file_unlink",
        "pg_logdir_ls",
        "lo_import",
        "lo_export",
    ];
    const SESSIONS: &[&str] = &["pg_terminate_backend", "pg_cancel_backend"];
    const SERVER: &[&str] = &[
        "pg_reload_conf",
        "pg_rotate_logfile",
        "pg_switch_wal",
        "pg_promote",
        "pg_backup_start",
        "pg_backup_stop",
        "pg_start_backup",
        "pg_stop_backup",
        "pg_create_restore_point",
        "pg_create_physical_replication_slot",
        "pg_create_logical_replication_slot",
        "pg_drop_replication_slot",
        "pg_copy_physical_replication_slot",
        "pg_copy_logical_replication_slot",
        "pg_replication_origin_create",
        "pg_replication_origin_drop",
        "pg_wal_replay_pause",
        "pg_wal_replay_resume",
        "pg_log_backend_memory_contexts",
    ];
    if name.starts_with("dblink") {
        return Some(format!(
            "{name}() connects to a database outside the scratch database"
        ));
    }
    if FILES.contains(&name) {
        return Some(format!("{name}() reads or writes the server's file system"));
    }
    if SESSIONS.contains(&name) {
        return Some(format!("{name}() acts on another session on the server"));
    }
    SERVER
        .contains(&name)
        .then(|| format!("{name}() acts on the whole server, not on the scratch database"))
}
