//! `platcheck fix --verify`: the fixed migrations replayed on a real
//! PostgreSQL, in a database of their own, after the history before them
//! and with fixture rows in every existing table, as the migration tool
//! runs them (its transaction or none). After each statement the server
//! says which locks this session holds (`pg_locks`) and how many rows it
//! has read per table (`pg_stat_xact_user_tables`): a fix is proven when
//! no statement reads rows while a lock that blocks writes (SHARE or
//! stronger) on an existing table is held, i.e. every blocking step is
//! catalog-only, and the server accepts every statement where the tool
//! runs it (a CONCURRENTLY build outside any transaction), watched from
//! another session (`concurrent`): never SHARE or stronger on the table.
mod concurrent;
mod fixture;
pub mod mariadb;
mod plan;

pub use plan::{plan, plan_mysql};

use postgres::{Client, NoTls};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Rows put in every table the history created before the fixed files.
pub const FIXTURE_ROWS: u32 = 1000;

/// One statement as the tool sends it.
#[derive(Debug, Clone)]
pub struct PlanStmt {
    pub line: usize,
    pub text: String,
    /// Inside the tool's (or the script's own) transaction.
    pub in_tx: bool,
    /// PostgreSQL refuses it inside a transaction block.
    pub outside_only: bool,
}

#[derive(Debug, Clone)]
pub struct PlanFile {
    pub name: String,
    pub stmts: Vec<PlanStmt>,
    /// Judged (a file the fix wrote), or only replayed to build the schema.
    pub judged: bool,
}

/// The history of every fixed PostgreSQL file, in the tool's order.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub histories: Vec<Vec<PlanFile>>,
}

/// What the replay found.
#[derive(Debug, Default)]
pub struct Proof {
    pub text: String,
    /// Statements that read rows under a blocking lock (or were refused).
    pub failures: usize,
    pub statements: usize,
}

const BLOCKING: &str =
    "('ShareLock','ShareRowExclusiveLock','ExclusiveLock','AccessExclusiveLock')";

/// Replays the plan, one fresh database per history, on the server at
/// `admin_url` (a URL or key-value connection string).
pub fn run(plan: &Plan, admin_url: &str) -> Result<Proof, String> {
    let mut proof = Proof::default();
    for history in &plan.histories {
        let db = format!(
            "platcheck_fixproof_{}",
            crate::sql::verify::scratch::unique_name()
        );
        let mut admin =
            Client::connect(admin_url, NoTls).map_err(|e| format!("cannot connect: {e}"))?;
        admin
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .map_err(|e| format!("cannot create the proof database: {e}"))?;
        let result = (|| {
            let mut cfg: postgres::Config = admin_url.parse().map_err(|e| format!("{e}"))?;
            cfg.dbname(&db);
            let mut c = cfg
                .connect(NoTls)
                .map_err(|e| format!("cannot connect to {db}: {e}"))?;
            replay(&cfg, &mut c, history, &mut proof)
        })();
        // The database is ours alone: drop it whatever happened.
        let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
        result?;
    }
    proof.summarise(
        "fixed migrations",
        "no lock that blocks writes was held while rows were read",
    );
    Ok(proof)
}

impl Proof {
    /// The closing line of a proof: how much was replayed and the verdict
    /// (`held` says what a clean proof showed).
    pub(super) fn summarise(&mut self, what: &str, held: &str) {
        use crate::catalog::plural;
        let verdict = if self.failures == 0 {
            held.to_string()
        } else {
            format!(
                "{} the proof",
                plural(self.failures, "statement failed", "statements failed")
            )
        };
        let _ = writeln!(
            self.text,
            "fix --verify: {} of {what} replayed with {FIXTURE_ROWS} fixture rows per table: {verdict}",
            plural(self.statements, "statement", "statements"),
        );
    }
}

fn replay(
    cfg: &postgres::Config,
    c: &mut Client,
    history: &[PlanFile],
    proof: &mut Proof,
) -> Result<(), String> {
    let first_judged = history
        .iter()
        .position(|f| f.judged)
        .unwrap_or(history.len());
    for (i, file) in history.iter().enumerate() {
        if i == first_judged {
            let skipped = fixture::fixture_rows(c)?;
            for t in skipped {
                let _ = writeln!(
                    proof.text,
                    "note: no fixture rows in {t} (its columns need values platcheck cannot make up)"
                );
            }
        }
        if file.judged {
            judge(cfg, c, file, proof)?;
        } else {
            setup(c, file)?;
        }
    }
    Ok(())
}

fn setup(c: &mut Client, file: &PlanFile) -> Result<(), String> {
    let whole_tx =
        file.stmts.first().is_some_and(|s| s.in_tx) && !file.stmts.iter().any(|s| s.outside_only);
    let mut sql = String::new();
    for s in &file.stmts {
        sql.push_str(&s.text);
        sql.push_str(";\n");
    }
    let sql = if whole_tx {
        format!("BEGIN;\n{sql}COMMIT;")
    } else {
        sql
    };
    c.batch_execute(&sql).map_err(|e| {
        format!(
            "{}: the history before the fix does not replay: {}",
            file.name,
            message(&e)
        )
    })
}

fn judge(
    cfg: &postgres::Config,
    c: &mut Client,
    file: &PlanFile,
    proof: &mut Proof,
) -> Result<(), String> {
    let tool_tx = file.stmts.first().is_some_and(|s| s.in_tx);
    let mut open = false;
    let mut reads = rows_read(c)?;
    if tool_tx {
        c.batch_execute("BEGIN").map_err(|e| message(&e))?;
        open = true;
    }
    for s in &file.stmts {
        proof.statements += 1;
        let head = crate::sql::verify::head(&s.text);
        let upper = s.text.trim_start().to_ascii_uppercase();
        let (begins, ends) = (
            upper.starts_with("BEGIN") || upper.starts_with("START TRANSACTION"),
            upper.starts_with("COMMIT")
                || upper.starts_with("END")
                || upper.starts_with("ROLLBACK"),
        );
        // Our own transaction around an autocommit statement, so the
        // server can be asked what it held and read before it commits.
        let wrap = !open && !s.outside_only && !begins;
        if wrap {
            c.batch_execute("BEGIN").map_err(|e| message(&e))?;
        }
        // A CONCURRENTLY statement is watched from another session while
        // it runs: SHARE or stronger on the table would block writes.
        let watched = !open && s.outside_only && upper.contains("CONCURRENTLY");
        let ran = if watched {
            concurrent::observe(cfg, c, &s.text)?
        } else {
            c.batch_execute(&s.text)
                .map(|()| concurrent::Seen::default())
        };
        if watched && let Ok(seen) = &ran {
            let blocking = seen.blocking();
            if seen.unseen() {
                proof.failures += 1;
                let _ = writeln!(
                    proof.text,
                    "FAIL {}:{} {head}: finished before the watcher saw it run: its locks are unproven",
                    file.name, s.line
                );
            } else if blocking.is_empty() {
                let _ = writeln!(
                    proof.text,
                    "ok   {}:{} {head}: ran outside a transaction, as the tool runs it; {}",
                    file.name,
                    s.line,
                    seen.describe()
                );
            } else {
                proof.failures += 1;
                let _ = writeln!(
                    proof.text,
                    "FAIL {}:{} {head}: {}: writes wait for it",
                    file.name,
                    s.line,
                    seen.describe()
                );
            }
            reads = rows_read(c)?;
            continue;
        }
        if let Err(e) = ran {
            proof.failures += 1;
            let _ = writeln!(
                proof.text,
                "FAIL {}:{} {head}: the server refused it: {}",
                file.name,
                s.line,
                message(&e)
            );
            let _ = c.batch_execute("ROLLBACK");
            return Ok(());
        }
        open = (open || begins || wrap) && !ends;
        if s.outside_only {
            let _ = writeln!(
                proof.text,
                "ok   {}:{} {head}: ran outside a transaction, as the tool runs it",
                file.name, s.line
            );
            reads = rows_read(c)?;
            continue;
        }
        let now = rows_read(c)?;
        let read: BTreeMap<&String, i64> = now
            .iter()
            .map(|(t, n)| (t, n - reads.get(t).copied().unwrap_or(0)))
            .filter(|(_, d)| *d > 0)
            .collect();
        let held = if open || wrap {
            blocking_locks(c)?
        } else {
            Vec::new()
        };
        let held_text = held
            .iter()
            .map(|(t, m)| format!("{m} on {t}"))
            .collect::<Vec<_>>()
            .join(", ");
        let read_text = read
            .iter()
            .map(|(t, n)| format!("{n} rows of {t}"))
            .collect::<Vec<_>>()
            .join(", ");
        if !held.is_empty() && !read.is_empty() {
            proof.failures += 1;
            let _ = writeln!(
                proof.text,
                "FAIL {}:{} {head}: read {read_text} while holding {held_text}",
                file.name, s.line
            );
        } else {
            let what = match (held.is_empty(), read.is_empty()) {
                (false, _) => format!("holds {held_text}, read no rows (catalog only)"),
                (true, false) => format!("read {read_text} holding no lock that blocks writes"),
                (true, true) => "no blocking lock, no rows read".to_string(),
            };
            let _ = writeln!(proof.text, "ok   {}:{} {head}: {what}", file.name, s.line);
        }
        if wrap {
            c.batch_execute("COMMIT").map_err(|e| message(&e))?;
            open = false;
        }
        reads = rows_read(c)?;
    }
    if open {
        c.batch_execute("COMMIT").map_err(|e| message(&e))?;
    }
    Ok(())
}

/// Rows read so far by this session, per user table (sequential and index).
fn rows_read(c: &mut Client) -> Result<BTreeMap<String, i64>, String> {
    let rows = c
        .query(
            "SELECT relname::text, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int8 \
             FROM pg_stat_xact_user_tables",
            &[],
        )
        .map_err(|e| message(&e))?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Locks that block writes this session holds on tables that have rows.
fn blocking_locks(c: &mut Client) -> Result<Vec<(String, String)>, String> {
    let rows = c
        .query(
            &format!(
                "SELECT c.relname::text, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
                 WHERE l.pid = pg_backend_pid() AND l.granted AND c.relkind IN ('r', 'p') \
                 AND l.mode IN {BLOCKING} AND c.reltuples > 0 ORDER BY 1"
            ),
            &[],
        )
        .map_err(|e| message(&e))?;
    // The strongest mode per table: a statement may hold several.
    let mut strongest: BTreeMap<String, crate::sql::locks::PgMode> = BTreeMap::new();
    for r in &rows {
        let mode = crate::sql::verify::pg::mode_name(r.get::<_, &str>(1));
        let e = strongest.entry(r.get(0)).or_insert(mode);
        *e = (*e).max(mode);
    }
    Ok(strongest
        .into_iter()
        .map(|(t, m)| (t, m.as_str().to_string()))
        .collect())
}

pub(crate) fn message(e: &postgres::Error) -> String {
    crate::sql::verify::pg::server_message(e)
}
