//! MariaDB/MySQL replay into a scratch schema. Before each ALTER TABLE is
//! applied, the server is asked which algorithm it accepts for it — on a
//! copy of the table (`CREATE TABLE … LIKE` + `INSERT … SELECT`), trying
//! the cheapest first; a forced algorithm the server cannot honour is
//! refused before anything changes. The first accepted one is the
//! observation; a change of the copy's InnoDB table id tells a rebuild.
use super::limits::{Limits, Stopper};
use super::scratch_my::{self, Place};
use super::{Observed, Options, Run, Script, StmtReport, VerifyError, gate};
#[path = "my_probe.rs"]
mod probe;
use crate::sql::analysis::Stmt;
use crate::sql::ops::{Alter, Op};
use crate::sql::{Dialect, Version};
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
pub use probe::retarget;

const PROBE: &str = "_platcheck_probe";
const ON_COPY: &str = "on the probe copy: ";
/// Seconds: a metadata-lock wait and a whole statement.
const LOCK_WAIT_TIMEOUT: u32 = 20;
const MAX_STATEMENT_TIME: u32 = 120;
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

fn err(e: mysql::Error) -> VerifyError {
    VerifyError(message(&e))
}

pub fn message(e: &mysql::Error) -> String {
    match e {
        mysql::Error::MySqlError(m) => format!("{} ({})", m.message, m.code),
        other => other.to_string(),
    }
}

/// The server will not prepare this statement (ER_UNSUPPORTED_PS).
fn unsupported_ps(e: &mysql::Error) -> bool {
    matches!(e, mysql::Error::MySqlError(m) if m.code == 1295)
}

/// The server cannot do this ALTER with the forced algorithm or lock level.
fn refused(e: &mysql::Error) -> bool {
    // ER_ALTER_OPERATION_NOT_SUPPORTED, …_REASON, and MariaDB's
    // ER_ALTER_OPERATION_NOT_SUPPORTED_REASON_* variants.
    matches!(e, mysql::Error::MySqlError(m) if matches!(m.code, 1845 | 1846 | 4092))
}

/// Stops a statement from outside its session: `KILL QUERY`, then `KILL`
/// (the session), both from a fresh connection as the URL's user.
struct MyStopper {
    admin: Opts,
    id: u32,
}

impl Stopper for MyStopper {
    fn cancel(&self) {
        if let Ok(mut c) = Conn::new(self.admin.clone()) {
            let _ = c.query_drop(format!("KILL QUERY {}", self.id));
        }
    }
    fn terminate(&self) {
        if let Ok(mut c) = Conn::new(self.admin.clone()) {
            let _ = c.query_drop(format!("KILL {}", self.id));
        }
    }
}

pub struct MyVerifier {
    /// The replay's session on the scratch database (the sandbox account's,
    /// or the URL user's when there is none).
    conn: Conn,
    /// The URL's user on the scratch database: InnoDB's table ids need the
    /// PROCESS privilege the sandbox does not have.
    admin: Conn,
    admin_opts: Opts,
    pub dialect: Dialect,
    pub version: Version,
    pub version_text: String,
    db: String,
    opts: Options,
    policy: gate::Policy,
    limits: Limits,
    notes: Vec<String>,
    // Declared last: dropped after the sessions above are closed.
    place: Place,
}

impl MyVerifier {
    pub fn connect(url: &str, in_place: bool) -> Result<MyVerifier, VerifyError> {
        MyVerifier::connect_with(
            url,
            &Options {
                in_place,
                ..Options::default()
            },
        )
    }

    pub fn connect_with(url: &str, opts: &Options) -> Result<MyVerifier, VerifyError> {
        // The driver reads `mysql://`; `mariadb://` is the same protocol.
        let url = url
            .strip_prefix("mariadb://")
            .map_or_else(|| url.to_string(), |rest| format!("mysql://{rest}"));
        let url_opts: Opts = OptsBuilder::from_opts(
            Opts::from_url(&url).map_err(|e| VerifyError(format!("bad database URL: {e}")))?,
        )
        .tcp_connect_timeout(Some(CONNECT_TIMEOUT))
        // Stay on the transport the URL names: the driver would otherwise
        // move a local TCP connection to the unix socket after logging in,
        // and the sandbox account must match the host the server sees.
        .prefer_socket(false)
        .into();
        let own_db = url_opts.get_db_name().map(str::to_string);
        if opts.in_place {
            // DDL commits implicitly on MySQL/MariaDB: replaying into the
            // URL's own schema could not keep the promise never to commit.
            return Err(VerifyError(format!(
                "--in-place is PostgreSQL only: MySQL/MariaDB commit every DDL statement, so a replay into `{}` could not be undone",
                own_db.unwrap_or_default()
            )));
        }
        let mut conn = Conn::new(url_opts.clone()).map_err(err)?;
        let version_text: String = conn
            .query_first("SELECT VERSION()")
            .map_err(err)?
            .unwrap_or_default();
        let dialect = if version_text.to_ascii_lowercase().contains("mariadb") {
            Dialect::MariaDb
        } else {
            Dialect::MySql
        };
        let version = Version::parse(&version_text).unwrap_or(Version(10, 11, 0));
        let place = scratch_my::create(&mut conn, &url_opts, dialect, opts)?;
        drop(conn);
        let admin_opts = scratch_my::replay_opts(&url_opts, &place.name, None);
        let mut v = MyVerifier {
            conn: Conn::new(scratch_my::replay_opts(
                &url_opts,
                &place.name,
                place.account.as_ref(),
            ))
            .map_err(err)?,
            admin: Conn::new(admin_opts.clone()).map_err(err)?,
            admin_opts,
            dialect,
            version,
            version_text,
            db: place.name.clone(),
            opts: opts.clone(),
            policy: gate::Policy::new(dialect, &place.name, &opts.extensions),
            limits: Limits::new(opts.statement_limit, opts.total_limit),
            notes: place.notes.clone(),
            place,
        };
        v.session_settings()?;
        Ok(v)
    }

    fn session_settings(&mut self) -> Result<(), VerifyError> {
        let timeouts = match self.dialect {
            Dialect::MariaDb => format!(
                "SET SESSION lock_wait_timeout = {LOCK_WAIT_TIMEOUT}, SESSION max_statement_time = {MAX_STATEMENT_TIME}"
            ),
            _ => format!("SET SESSION lock_wait_timeout = {LOCK_WAIT_TIMEOUT}"),
        };
        self.conn.query_drop(&timeouts).map_err(err)
    }

    pub fn reset(&mut self) -> Result<(), VerifyError> {
        let db = self.db.clone();
        // The URL's user drops and recreates it (the sandbox keeps its
        // grant: it is on the name), and the marker with it.
        let _ = &self.place;
        let marker = super::scratch::literal(&super::scratch::Marker::ours().text());
        let create = if self.dialect == Dialect::MariaDb {
            format!("CREATE DATABASE `{db}` COMMENT {marker}")
        } else {
            format!("CREATE DATABASE `{db}`")
        };
        self.admin
            .query_drop(format!("DROP DATABASE `{db}`"))
            .map_err(err)?;
        self.admin.query_drop(create).map_err(err)?;
        self.conn
            .query_drop(format!("USE `{db}`; SET SESSION foreign_key_checks = 1"))
            .map_err(err)?;
        self.admin.query_drop(format!("USE `{db}`")).map_err(err)
    }

    pub fn replay(&mut self, scripts: &[Script]) -> Result<Run, VerifyError> {
        let analyses = super::analyse(scripts, self.dialect, self.version);
        let mut notes = self.notes.clone();
        for (name, create) in super::bookkeeping::my_tables(scripts) {
            self.conn.query_drop(&create).map_err(err)?;
            notes.push(format!(
                "created the migration tool's table {name} (empty) first: the migrations name it, and the tool makes it before they run"
            ));
        }
        let mut out = Vec::new();
        for (fa, script) in analyses.iter().zip(scripts) {
            let lines = super::Lines::new(script);
            for st in &fa.stmts {
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
        Ok(Run {
            dialect: super::dialect_name(self.dialect).into(),
            server_version: self.version_text.clone(),
            statements: out,
            notes,
        })
    }

    fn run_stmt(&mut self, st: &Stmt, text: &str) -> Result<Observed, VerifyError> {
        let skip = |why: &str| Observed {
            skipped: Some(why.to_string()),
            ..Observed::default()
        };
        match &st.op {
            Some(Op::Set { name, .. })
                if matches!(
                    name.as_str(),
                    "lock_wait_timeout" | "max_statement_time" | "max_execution_time"
                ) =>
            {
                return Ok(skip("verify keeps its own timeouts"));
            }
            Some(Op::AlterTable { actions, .. })
                if actions.iter().any(|a| matches!(a, Alter::RenameTo(_))) =>
            {
                // A copy renamed to the target name would take it from the
                // original: probe on the table itself, where a refused
                // ALGORITHM/LOCK changes nothing and the accepted one is the
                // migration's own effect.
                return match self.probe_in_place(text)? {
                    Some(o) => Ok(o),
                    None => self.apply(text),
                };
            }
            Some(Op::AlterTable { .. }) => {}
            _ => return self.apply(text),
        }
        let mut o = match self.probe(text)? {
            // `CREATE TABLE … LIKE` copies no foreign keys, so an ALTER
            // about one fails on the copy: ask on the scratch table itself,
            // where a refused algorithm changes nothing and the accepted
            // one is the migration's own effect.
            Some(o) if o.error.as_deref().is_some_and(|e| e.starts_with(ON_COPY)) => {
                return match self.probe_in_place(text)? {
                    Some(o) => Ok(o),
                    None => self.apply(text),
                };
            }
            Some(o) => o,
            None => Observed {
                skipped: Some("the table could not be copied for probing".into()),
                ..Observed::default()
            },
        };
        let applied = self.apply(text)?;
        if applied.error.is_some() {
            o.error = applied.error;
        }
        Ok(o)
    }

    /// Sends one statement that carries migration text. A prepared
    /// statement holds exactly one statement (the server refuses a second),
    /// so a `;` the splitter did not see cannot start another; the few
    /// statements the server will not prepare go as text. Outer error: the
    /// replay cannot go on; inner: the server refused this statement.
    fn send(&mut self, sql: &str) -> Result<Result<(), mysql::Error>, VerifyError> {
        let armed = self.limits.arm(MyStopper {
            admin: self.admin_opts.clone(),
            id: self.conn.connection_id(),
        })?;
        let mut result = self.conn.exec_drop(sql, ());
        if matches!(&result, Err(e) if unsupported_ps(e)) && armed.fired().is_none() {
            result = self.conn.query_drop(sql);
        }
        if let Some(fired) = armed.fired() {
            let why = fired.outcome(&self.limits)?;
            return Ok(Err(mysql::Error::MySqlError(mysql::MySqlError {
                state: "70100".into(),
                message: why,
                code: 1317,
            })));
        }
        match result {
            Err(mysql::Error::IoError(e)) => Err(VerifyError(format!(
                "the connection to the server was lost: {e}"
            ))),
            r => Ok(r),
        }
    }

    fn apply(&mut self, text: &str) -> Result<Observed, VerifyError> {
        Ok(match self.send(text)? {
            Ok(()) => Observed::default(),
            Err(e) => Observed {
                error: Some(message(&e)),
                ..Observed::default()
            },
        })
    }
}
