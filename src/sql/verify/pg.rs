//! PostgreSQL replay. Each statement runs in its own transaction; before
//! COMMIT the session's `pg_locks` rows and `pg_class` are read, so every
//! lock the statement took is still held and every new relfilenode is
//! visible. Statements that cannot run in a transaction go to `pg_watch`.
use super::scratch::{self, Guard, Scratch};
use super::{Observed, Run, Script, StmtReport, VerifyError, pg_watch};
use crate::sql::analysis::Stmt;
use crate::sql::locks::{self, PgMode};
use crate::sql::ops::Op;
use crate::sql::{Dialect, Version};
use postgres::{Client, Config, NoTls};
use std::collections::{BTreeMap, HashMap};

/// Generous for a scratch database, short enough that a replay never hangs.
pub const STATEMENT_TIMEOUT: &str = "120s";
pub const LOCK_TIMEOUT: &str = "20s";

/// The server's own words for an error (a connection error has no SQLSTATE).
pub fn server_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => {
            let mut s = e.to_string();
            let mut src = std::error::Error::source(e);
            while let Some(inner) = src {
                s = format!("{s}: {inner}");
                src = inner.source();
            }
            s
        }
    }
}

fn err(e: postgres::Error) -> VerifyError {
    VerifyError(server_message(&e))
}

#[derive(Clone, Debug)]
pub struct Rel {
    pub name: String,
    pub kind: String,
    pub filenode: u32,
}

/// User relations (not catalogs, not TOAST) by oid.
pub type Snapshot = HashMap<u32, Rel>;

pub fn snapshot(c: &mut Client) -> Result<Snapshot, VerifyError> {
    let rows = c
        .query(
            "SELECT c.oid, c.relname::text, c.relkind::text, c.relfilenode \
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') \
               AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'",
            &[],
        )
        .map_err(err)?;
    Ok(rows
        .iter()
        .map(|r| {
            (
                r.get::<_, u32>(0),
                Rel {
                    name: r.get(1),
                    kind: r.get(2),
                    filenode: r.get(3),
                },
            )
        })
        .collect())
}

/// Tables whose locks the lock table speaks about.
pub fn is_table(kind: &str) -> bool {
    matches!(kind, "r" | "p" | "m")
}

/// `AccessExclusiveLock` → `ACCESS EXCLUSIVE`.
pub fn mode_name(pg_locks_mode: &str) -> PgMode {
    PgMode::parse(pg_locks_mode.strip_suffix("Lock").unwrap_or(pg_locks_mode))
}

/// What changed between two snapshots, with the modes seen on each oid.
pub fn diff(before: &Snapshot, after: &Snapshot, seen: &[(u32, String)]) -> Observed {
    let mut strongest: BTreeMap<String, PgMode> = BTreeMap::new();
    for (oid, mode) in seen {
        if let Some(rel) = before.get(oid).filter(|r| is_table(&r.kind)) {
            let m = mode_name(mode);
            let e = strongest.entry(rel.name.clone()).or_insert(m);
            *e = (*e).max(m);
        }
    }
    let mut o = Observed {
        locks: strongest
            .into_iter()
            .map(|(relation, m)| super::LockObs {
                relation,
                mode: m.as_str().to_string(),
            })
            .collect(),
        rewrite: Some(false),
        ..Observed::default()
    };
    for (oid, b) in before {
        match after.get(oid) {
            None => o.dropped.push(b.name.clone()),
            Some(a) if a.filenode != b.filenode && b.filenode != 0 => {
                if b.kind == "i" {
                    o.indexes_rebuilt.push(b.name.clone());
                } else if is_table(&b.kind) {
                    o.rewrite = Some(true);
                }
            }
            Some(_) => {}
        }
    }
    for (oid, a) in after {
        if !before.contains_key(oid) {
            o.created.push(a.name.clone());
        }
    }
    o.dropped.sort();
    o.created.sort();
    o.indexes_rebuilt.sort();
    o
}

/// Opens a session with verify's timeouts.
pub fn session(cfg: &Config) -> Result<Client, VerifyError> {
    let mut c = cfg.connect(NoTls).map_err(err)?;
    c.batch_execute(&format!(
        "SET statement_timeout = '{STATEMENT_TIMEOUT}'; SET lock_timeout = '{LOCK_TIMEOUT}'"
    ))
    .map_err(err)?;
    Ok(c)
}

pub struct PgVerifier {
    cfg: Config,
    client: Client,
    pub version: Version,
    pub version_text: String,
    in_place: bool,
    // Declared last: dropped after the sessions above are closed.
    _guard: Option<Guard>,
}

impl PgVerifier {
    /// Creates the scratch database (or, with `in_place`, opens one
    /// transaction on the URL's database that is rolled back at the end).
    pub fn connect(url: &str, in_place: bool) -> Result<PgVerifier, VerifyError> {
        let mut cfg: Config = url
            .parse()
            .map_err(|e: postgres::Error| VerifyError(format!("bad database URL: {e}")))?;
        let mut admin = cfg.connect(NoTls).map_err(err)?;
        let version_text: String = admin
            .query_one("SHOW server_version", &[])
            .map_err(err)?
            .get(0);
        let version = Version::parse(&version_text).unwrap_or(Version(15, 0, 0));
        let (client, guard) = if in_place {
            admin
                .batch_execute(&format!(
                    "SET statement_timeout = '{STATEMENT_TIMEOUT}'; SET lock_timeout = '{LOCK_TIMEOUT}'; BEGIN"
                ))
                .map_err(err)?;
            (admin, None)
        } else {
            let name = scratch::unique_name();
            admin
                .batch_execute(&format!("CREATE DATABASE \"{name}\""))
                .map_err(err)?;
            drop(admin);
            let guard = Guard::register(Scratch::Pg {
                admin_url: url.to_string(),
                name: name.clone(),
            });
            cfg.dbname(&name);
            (session(&cfg)?, Some(guard))
        };
        Ok(PgVerifier {
            cfg,
            client,
            version,
            version_text,
            in_place,
            _guard: guard,
        })
    }

    /// Empties the scratch database between independent replays.
    pub fn reset(&mut self) -> Result<(), VerifyError> {
        if self.in_place {
            return Err(VerifyError("reset is not allowed --in-place".into()));
        }
        let schemas: Vec<String> = self
            .client
            .query(
                "SELECT nspname::text FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' \
                 AND nspname <> 'information_schema'",
                &[],
            )
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        for s in schemas {
            self.client
                .batch_execute(&format!("DROP SCHEMA \"{s}\" CASCADE"))
                .map_err(err)?;
        }
        self.client
            .batch_execute("CREATE SCHEMA public")
            .map_err(err)
    }

    pub fn replay(&mut self, scripts: &[Script]) -> Result<Run, VerifyError> {
        let analyses = super::analyse(scripts, Dialect::Postgres, self.version);
        let mut out = Vec::new();
        for (fa, script) in analyses.iter().zip(scripts) {
            for st in &fa.stmts {
                let text = &script.text[st.span.start..st.span.end];
                let observed = self.run_stmt(st, text)?;
                out.push(StmtReport::new(script, st, observed));
            }
        }
        Ok(Run {
            dialect: "postgres".into(),
            server_version: self.version_text.clone(),
            statements: out,
        })
    }

    fn run_stmt(&mut self, st: &Stmt, text: &str) -> Result<Observed, VerifyError> {
        let skip = |why: &str| Observed {
            skipped: Some(why.to_string()),
            ..Observed::default()
        };
        match &st.op {
            Some(op) if op.is_transaction_control() => {
                return Ok(skip(
                    "transaction control: verify runs each statement in its own transaction",
                ));
            }
            Some(Op::Set { name, .. }) if name == "lock_timeout" || name == "statement_timeout" => {
                return Ok(skip("verify keeps its own timeouts"));
            }
            Some(Op::Set { .. }) => {
                return Ok(match self.client.batch_execute(text) {
                    Ok(()) => Observed::default(),
                    Err(e) => Observed {
                        error: Some(server_message(&e)),
                        ..Observed::default()
                    },
                });
            }
            _ => {}
        }
        if needs_own_session(st, text) {
            if self.in_place {
                return Ok(skip(
                    "cannot run in a transaction, and --in-place never commits",
                ));
            }
            return pg_watch::run(&self.cfg, &mut self.client, text);
        }
        let (open, fail, close) = if self.in_place {
            (
                "SAVEPOINT pc_verify",
                "ROLLBACK TO SAVEPOINT pc_verify",
                "RELEASE SAVEPOINT pc_verify",
            )
        } else {
            ("BEGIN", "ROLLBACK", "COMMIT")
        };
        let before = snapshot(&mut self.client)?;
        let held = if self.in_place {
            self.held()?
        } else {
            Vec::new()
        };
        self.client.batch_execute(open).map_err(err)?;
        if let Err(e) = self.client.batch_execute(text) {
            self.client.batch_execute(fail).map_err(err)?;
            return Ok(Observed {
                error: Some(server_message(&e)),
                ..Observed::default()
            });
        }
        let seen: Vec<(u32, String)> = self
            .held()?
            .into_iter()
            .filter(|l| !held.contains(l))
            .collect();
        let after = snapshot(&mut self.client)?;
        self.client.batch_execute(close).map_err(err)?;
        Ok(diff(&before, &after, &seen))
    }

    /// Relation locks this session holds now.
    fn held(&mut self) -> Result<Vec<(u32, String)>, VerifyError> {
        Ok(self
            .client
            .query(
                "SELECT relation, mode FROM pg_locks \
                 WHERE pid = pg_backend_pid() AND locktype = 'relation' AND relation IS NOT NULL",
                &[],
            )
            .map_err(err)?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }
}

impl Drop for PgVerifier {
    fn drop(&mut self) {
        if self.in_place {
            // Never commit into the URL's own database.
            let _ = self.client.batch_execute("ROLLBACK");
        }
    }
}

/// Statements the lock table marks as not runnable inside a transaction
/// block (CONCURRENTLY index forms, DETACH … CONCURRENTLY, VACUUM). The
/// word CONCURRENTLY decides only when the classifier knows nothing about
/// the statement: REFRESH MATERIALIZED VIEW CONCURRENTLY does run in a
/// transaction, and reading its locks there is exact, while watching it
/// from a second session can miss them on a loaded machine.
pub fn needs_own_session(st: &Stmt, text: &str) -> bool {
    st.effects.iter().any(|e| !locks::pg(e.key).in_tx)
        || matches!(st.op, Some(Op::Vacuum { .. }))
        || (st.effects.is_empty()
            && text
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|w| w.eq_ignore_ascii_case("concurrently")))
}
