//! PostgreSQL replay. Each statement runs in its own transaction; before
//! COMMIT the session's `pg_locks` rows and `pg_class` are read, so every
//! lock the statement took is still held and every new relfilenode is
//! visible. Statements that cannot run in a transaction go to `pg_watch`.
use super::limits::Limits;
use super::pg_exec::Session;
pub use super::pg_observe::{Rel, Snapshot, diff, is_named_other, is_table, mode_name, snapshot};
use super::pg_pool::Pool;
use super::pg_scans;
use super::scratch_pg::{self, Place};
use super::{Observed, Options, Run, Script, StmtReport, VerifyError, gate, pg_watch};
use crate::sql::analysis::Stmt;
use crate::sql::locks;
use crate::sql::ops::Op;
use crate::sql::{Dialect, Version};
use postgres::{Client, Config, NoTls};

/// Generous for a scratch database, short enough that a replay never hangs.
pub const STATEMENT_TIMEOUT: &str = "120s";
pub const LOCK_TIMEOUT: &str = "20s";
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

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

pub(super) fn err(e: postgres::Error) -> VerifyError {
    VerifyError(server_message(&e))
}

/// Opens a session with verify's server-side timeouts (the client-side
/// limits hold whatever a migration does to these).
pub fn session(cfg: &Config) -> Result<Client, VerifyError> {
    let mut c = cfg.connect(NoTls).map_err(err)?;
    c.batch_execute(&format!(
        "SET statement_timeout = '{STATEMENT_TIMEOUT}'; SET lock_timeout = '{LOCK_TIMEOUT}'"
    ))
    .map_err(err)?;
    Ok(c)
}

pub struct PgVerifier {
    /// Sessions on the scratch database as the sandbox role (or the URL's
    /// user when there is none); `admin_cfg`: the URL's user there.
    cfg: Config,
    admin_cfg: Config,
    session: Session,
    pub version: Version,
    pub version_text: String,
    /// The server's TimeZone is UTC: timestamp ↔ timestamptz is no rewrite.
    pub server_utc: bool,
    in_place: bool,
    opts: Options,
    policy: gate::Policy,
    limits: Limits,
    pool: Pool,
    sandboxed: bool,
    notes: Vec<String>,
    /// A SHARE-or-stronger lock on an index the prediction does not name
    /// is a disagreement (where the prediction names any relation). On by
    /// default: a statement in a transaction has its locks read from
    /// `pg_locks` before COMMIT, so what it took is exactly what is seen.
    /// A statement watched from a second session is never strict: its
    /// locks are sampled, and whether the index lock is caught varies
    /// (the output says which statements were watched).
    pub strict_indexes: bool,
    // Declared last: dropped after the sessions above are closed.
    _place: Option<Place>,
}

impl PgVerifier {
    /// Creates the scratch database (or, with `in_place`, opens one
    /// transaction on the URL's database that is rolled back at the end).
    pub fn connect(url: &str, in_place: bool) -> Result<PgVerifier, VerifyError> {
        PgVerifier::connect_with(
            url,
            &Options {
                in_place,
                ..Options::default()
            },
        )
    }

    pub fn connect_with(url: &str, opts: &Options) -> Result<PgVerifier, VerifyError> {
        let mut url_cfg: Config = url
            .parse()
            .map_err(|e: postgres::Error| VerifyError(format!("bad database URL: {e}")))?;
        url_cfg.connect_timeout(CONNECT_TIMEOUT);
        let mut admin = url_cfg.connect(NoTls).map_err(err)?;
        let version_text: String = admin
            .query_one("SHOW server_version", &[])
            .map_err(err)?
            .get(0);
        let version = Version::parse(&version_text).unwrap_or(Version(15, 0, 0));
        let timezone: String = admin.query_one("SHOW TimeZone", &[]).map_err(err)?.get(0);
        let (cfg, admin_cfg, client, place, database) = if opts.in_place {
            admin
                .batch_execute(&format!(
                    "SET statement_timeout = '{STATEMENT_TIMEOUT}'; SET lock_timeout = '{LOCK_TIMEOUT}'; BEGIN"
                ))
                .map_err(err)?;
            let db = url_cfg.get_dbname().unwrap_or_default().to_string();
            (url_cfg.clone(), url_cfg.clone(), admin, None, db)
        } else {
            let place = scratch_pg::create(&mut admin, &url_cfg, opts)?;
            drop(admin);
            let cfg = place.replay_cfg(&url_cfg);
            let admin_cfg = place.admin_cfg(&url_cfg);
            let client = session(&cfg)?;
            let name = place.name.clone();
            (cfg, admin_cfg, client, Some(place), name)
        };
        let sandboxed = place.as_ref().is_some_and(|p| p.role.is_some());
        let notes = place.as_ref().map(|p| p.notes.clone()).unwrap_or_default();
        Ok(PgVerifier {
            pool: Pool::new(cfg.clone(), opts.watch_connections),
            cfg,
            admin_cfg,
            session: Session::new(client)?,
            version,
            version_text,
            server_utc: crate::sql::timezone::is_utc(&timezone),
            in_place: opts.in_place,
            policy: gate::Policy::new(Dialect::Postgres, &database, &opts.extensions),
            limits: Limits::new(opts.statement_limit, opts.total_limit),
            opts: opts.clone(),
            sandboxed,
            notes,
            strict_indexes: true,
            _place: place,
        })
    }

    /// The scratch database's name (none `--in-place`).
    pub fn scratch_name(&self) -> Option<&str> {
        self._place.as_ref().map(|p| p.name.as_str())
    }

    /// Empties the scratch database between independent replays.
    pub fn reset(&mut self) -> Result<(), VerifyError> {
        if self.in_place {
            return Err(VerifyError("reset is not allowed --in-place".into()));
        }
        // The URL's user: it can drop what allowed extensions created too.
        let mut admin = self.admin_cfg.connect(NoTls).map_err(err)?;
        let schemas: Vec<String> = admin
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
            admin
                .batch_execute(&format!("DROP SCHEMA \"{s}\" CASCADE"))
                .map_err(err)?;
        }
        let owner = match (self.sandboxed, self.cfg.get_user()) {
            (true, Some(u)) => format!(" AUTHORIZATION \"{u}\""),
            _ => String::new(),
        };
        admin
            .batch_execute(&format!("CREATE SCHEMA public{owner}"))
            .map_err(err)
    }

    pub fn replay(&mut self, scripts: &[Script]) -> Result<Run, VerifyError> {
        let mut ctx = super::file_ctx(Dialect::Postgres, self.version);
        ctx.server_utc = self.server_utc;
        let analyses = super::analyse_in(scripts, ctx);
        let mut notes = self.notes.clone();
        for (name, create) in super::bookkeeping::pg_tables(scripts) {
            self.ours(&create)?;
            notes.push(format!(
                "created the migration tool's table {name} (empty) first: the migrations name it, and the tool makes it before they run"
            ));
        }
        let mut out = Vec::new();
        let mut texts = Vec::new();
        for (fa, script) in analyses.iter().zip(scripts) {
            let lines = super::Lines::new(script);
            for st in &fa.stmts {
                texts.push(&script.text[st.span.start..st.span.end]);
                let observed = match super::gatekeep(
                    script,
                    &lines,
                    st,
                    &self.policy,
                    !self.opts.allow_cluster_wide,
                ) {
                    Some(o) => o,
                    None => {
                        let text = &script.text[st.span.start..st.span.end];
                        self.run_stmt(st, text)?
                    }
                };
                out.push(StmtReport::new(script, &lines, st, observed));
            }
        }
        super::refusal::explain(&mut out, &texts, self.version);
        notes.extend(self.pool.notes());
        Ok(Run {
            dialect: "postgres".into(),
            server_version: self.version_text.clone(),
            statements: out,
            notes,
        })
    }

    /// Runs our own statement (transaction control, observation queries).
    fn ours(&mut self, sql: &str) -> Result<(), VerifyError> {
        self.session.client.batch_execute(sql).map_err(err)
    }

    fn run_stmt(&mut self, st: &Stmt, text: &str) -> Result<Observed, VerifyError> {
        let skip = |why: &str| Observed {
            skipped: Some(why.to_string()),
            ..Observed::default()
        };
        let refused = |e: String| Observed {
            error: Some(e),
            ..Observed::default()
        };
        match &st.op {
            Some(op) if op.is_transaction_control() => {
                return Ok(skip(
                    "transaction control: verify runs each statement in its own transaction",
                ));
            }
            Some(Op::Set { name, .. }) if gate_pg_timeout(name) => {
                return Ok(skip("verify keeps its own timeouts"));
            }
            Some(Op::Set { .. }) => {
                let r = self.session.run(text, &self.limits, &self.admin_cfg)?;
                return Ok(r.err().map(refused).unwrap_or_default());
            }
            _ => {}
        }
        if self.sandboxed && gate::creates_extension(text) {
            // An allowed extension's script may need a superuser: the
            // URL's user creates it (its locks are not in the lock table).
            let mut admin = Session::new(self.admin_cfg.connect(NoTls).map_err(err)?)?;
            let r = admin.run(text, &self.limits, &self.admin_cfg)?;
            return Ok(r.err().map(refused).unwrap_or_default());
        }
        if needs_own_session(st) {
            if self.in_place {
                return Ok(skip(
                    "cannot run in a transaction, and --in-place never commits",
                ));
            }
            let mut watch = pg_watch::Watch {
                pool: &mut self.pool,
                limits: &self.limits,
                admin: &self.admin_cfg,
                predicted: st.locks.iter().map(|(n, _)| n.name.clone()).collect(),
                count_scans: pg_scans::observable(self.version),
            };
            return pg_watch::run(&mut watch, &mut self.session.client, text);
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
        let before = snapshot(&mut self.session.client)?;
        let held = if self.in_place {
            self.held()?
        } else {
            Vec::new()
        };
        let count_scans = pg_scans::observable(self.version);
        if count_scans && !self.in_place {
            // Nothing pending, so no flush can land between the readings.
            pg_scans::flush(&mut self.session.client)?;
        }
        self.ours(open)?;
        let scans_before = match count_scans {
            true => pg_scans::counts(&mut self.session.client, true)?,
            false => None,
        };
        if let Err(e) = self.session.run(text, &self.limits, &self.admin_cfg)? {
            self.ours(fail)?;
            return Ok(refused(e));
        }
        let scans = match scans_before {
            Some(b) => pg_scans::counts(&mut self.session.client, true)?
                .map(|a| pg_scans::scanned(&b, &a, &before)),
            None => None,
        };
        let seen: Vec<(u32, String)> = self
            .held()?
            .into_iter()
            .filter(|l| !held.contains(l))
            .collect();
        let after = snapshot(&mut self.session.client)?;
        self.ours(close)?;
        let named: Vec<String> = st.locks.iter().map(|(n, _)| n.name.clone()).collect();
        let strict = self.strict_indexes && !named.is_empty();
        let mut o = super::pg_observe::diff_in(&before, &after, &seen, &named, strict);
        o.scans = scans;
        Ok(o)
    }

    /// Relation locks this session holds now.
    fn held(&mut self) -> Result<Vec<(u32, String)>, VerifyError> {
        Ok(self
            .session
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

fn gate_pg_timeout(name: &str) -> bool {
    name == "lock_timeout" || name == "statement_timeout"
}

impl Drop for PgVerifier {
    fn drop(&mut self) {
        if self.in_place {
            // Never commit into the URL's own database.
            let _ = self.session.client.batch_execute("ROLLBACK");
        }
    }
}

/// Statements that are, by their parse, forms PostgreSQL refuses inside a
/// transaction block (CONCURRENTLY index forms, DETACH … CONCURRENTLY,
/// VACUUM): the lock table's rows for them say so. No word in the text
/// decides; a statement the classifier does not read runs in a
/// transaction, and the server says if it cannot.
pub fn needs_own_session(st: &Stmt) -> bool {
    st.effects.iter().any(|e| !locks::pg(e.key).in_tx) || matches!(st.op, Some(Op::Vacuum { .. }))
}
