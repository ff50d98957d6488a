//! MariaDB/MySQL replay into a scratch schema. Before each ALTER TABLE is
//! applied, the server is asked which algorithm it accepts for it — on a
//! copy of the table (`CREATE TABLE … LIKE` + `INSERT … SELECT`), trying
//! the cheapest first; a forced algorithm the server cannot honour is
//! refused before anything changes. The first accepted one is the
//! observation; a change of the copy's InnoDB table id tells a rebuild.
use super::scratch::{self, Guard, Scratch};
use super::{Observed, Run, Script, StmtReport, VerifyError};
use crate::sql::analysis::Stmt;
use crate::sql::ops::{Alter, Op};
use crate::sql::{Dialect, Version};
use mysql::prelude::Queryable;
use mysql::{Conn, Opts};
use regex::Regex;
use std::sync::OnceLock;

const PROBE: &str = "_platcheck_probe";
const ON_COPY: &str = "on the probe copy: ";
/// Seconds: a metadata-lock wait and a whole statement.
const LOCK_WAIT_TIMEOUT: u32 = 20;
const MAX_STATEMENT_TIME: u32 = 120;

fn err(e: mysql::Error) -> VerifyError {
    VerifyError(message(&e))
}

pub fn message(e: &mysql::Error) -> String {
    match e {
        mysql::Error::MySqlError(m) => format!("{} ({})", m.message, m.code),
        other => other.to_string(),
    }
}

/// The server cannot do this ALTER with the forced algorithm or lock level.
fn refused(e: &mysql::Error) -> bool {
    // ER_ALTER_OPERATION_NOT_SUPPORTED, …_REASON, and MariaDB's
    // ER_ALTER_OPERATION_NOT_SUPPORTED_REASON_* variants.
    matches!(e, mysql::Error::MySqlError(m) if matches!(m.code, 1845 | 1846 | 4092))
}

pub struct MyVerifier {
    conn: Conn,
    pub dialect: Dialect,
    pub version: Version,
    pub version_text: String,
    db: String,
    _guard: Guard,
}

impl MyVerifier {
    pub fn connect(url: &str, in_place: bool) -> Result<MyVerifier, VerifyError> {
        // The driver reads `mysql://`; `mariadb://` is the same protocol.
        let url = url
            .strip_prefix("mariadb://")
            .map_or_else(|| url.to_string(), |rest| format!("mysql://{rest}"));
        let opts =
            Opts::from_url(&url).map_err(|e| VerifyError(format!("bad database URL: {e}")))?;
        let own_db = opts.get_db_name().map(str::to_string);
        let mut conn = Conn::new(opts.clone()).map_err(err)?;
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
        let timeouts = match dialect {
            Dialect::MariaDb => format!(
                "SET SESSION lock_wait_timeout = {LOCK_WAIT_TIMEOUT}, SESSION max_statement_time = {MAX_STATEMENT_TIME}"
            ),
            _ => format!("SET SESSION lock_wait_timeout = {LOCK_WAIT_TIMEOUT}"),
        };
        conn.query_drop(&timeouts).map_err(err)?;
        if in_place {
            // DDL commits implicitly on MySQL/MariaDB: replaying into the
            // URL's own schema could not keep the promise never to commit.
            return Err(VerifyError(format!(
                "--in-place is PostgreSQL only: MySQL/MariaDB commit every DDL statement, so a replay into `{}` could not be undone",
                own_db.unwrap_or_default()
            )));
        }
        let db = scratch::unique_name();
        conn.query_drop(format!("CREATE DATABASE `{db}`"))
            .map_err(err)?;
        let guard = Guard::register(Scratch::My {
            url: url.clone(),
            name: db.clone(),
        });
        conn.query_drop(format!("USE `{db}`")).map_err(err)?;
        Ok(MyVerifier {
            conn,
            dialect,
            version,
            version_text,
            db,
            _guard: guard,
        })
    }

    pub fn reset(&mut self) -> Result<(), VerifyError> {
        let db = self.db.clone();
        self.conn
            .query_drop(format!(
                "DROP DATABASE `{db}`; CREATE DATABASE `{db}`; USE `{db}`; SET SESSION foreign_key_checks = 1"
            ))
            .map_err(err)
    }

    pub fn replay(&mut self, scripts: &[Script]) -> Result<Run, VerifyError> {
        let analyses = super::analyse(scripts, self.dialect, self.version);
        let mut out = Vec::new();
        for (fa, script) in analyses.iter().zip(scripts) {
            for st in &fa.stmts {
                let text = &script.text[st.span.start..st.span.end];
                let observed = self.run_stmt(st, text);
                out.push(StmtReport::new(script, st, observed));
            }
        }
        Ok(Run {
            dialect: super::dialect_name(self.dialect).into(),
            server_version: self.version_text.clone(),
            statements: out,
        })
    }

    fn run_stmt(&mut self, st: &Stmt, text: &str) -> Observed {
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
                return skip("verify keeps its own timeouts");
            }
            Some(Op::AlterTable { actions, .. })
                if actions.iter().any(|a| matches!(a, Alter::RenameTo(_))) =>
            {
                // A copy renamed to the target name would take it from the original.
                let mut o = self.apply(text);
                if o.error.is_none() {
                    o.skipped = Some("RENAME TO is not probed on a copy".into());
                }
                return o;
            }
            Some(Op::AlterTable { .. }) => {}
            _ => return self.apply(text),
        }
        let mut o = match self.probe(text) {
            // `CREATE TABLE … LIKE` copies no foreign keys, so an ALTER
            // about one fails on the copy: ask on the scratch table itself,
            // where a refused algorithm changes nothing and the accepted
            // one is the migration's own effect.
            Some(o) if o.error.as_deref().is_some_and(|e| e.starts_with(ON_COPY)) => {
                return self
                    .probe_in_place(text)
                    .unwrap_or_else(|| self.apply(text));
            }
            Some(o) => o,
            None => Observed {
                skipped: Some("the table could not be copied for probing".into()),
                ..Observed::default()
            },
        };
        let applied = self.apply(text);
        if applied.error.is_some() {
            o.error = applied.error;
        }
        o
    }

    fn apply(&mut self, text: &str) -> Observed {
        match self.conn.query_drop(text) {
            Ok(()) => Observed::default(),
            Err(e) => Observed {
                error: Some(message(&e)),
                ..Observed::default()
            },
        }
    }

    fn table_id(&mut self, table: &str) -> Option<u64> {
        let name = format!("{}/{table}", self.db);
        let queries = [
            "SELECT TABLE_ID FROM information_schema.INNODB_SYS_TABLES WHERE NAME = ?",
            "SELECT TABLE_ID FROM information_schema.INNODB_TABLES WHERE NAME = ?",
        ];
        queries.iter().find_map(|q| {
            self.conn
                .exec_first::<u64, _, _>(*q, (&name,))
                .ok()
                .flatten()
        })
    }

    /// The first algorithm the server accepts for this ALTER on a copy.
    fn probe(&mut self, text: &str) -> Option<Observed> {
        let (table, probe_sql) = retarget(text)?;
        let _ = self
            .conn
            .query_drop(format!("DROP TABLE IF EXISTS `{PROBE}`"));
        self.conn
            .query_drop(format!("CREATE TABLE `{PROBE}` LIKE {table}"))
            .ok()?;
        // Generated columns refuse explicit values; an empty copy still
        // tells the algorithm, only the rebuild check is weaker.
        let _ = self
            .conn
            .query_drop(format!("INSERT INTO `{PROBE}` SELECT * FROM {table}"));
        let out = self.try_algorithms(&probe_sql, PROBE, ON_COPY);
        let _ = self
            .conn
            .query_drop(format!("DROP TABLE IF EXISTS `{PROBE}`"));
        out
    }

    fn probe_in_place(&mut self, text: &str) -> Option<Observed> {
        let (table, _) = retarget(text)?;
        let sql = strip_forced(text);
        let bare = table
            .rsplit('.')
            .next()
            .unwrap_or(&table)
            .trim_matches('`')
            .to_string();
        self.try_algorithms(&sql, &bare, "")
    }

    fn try_algorithms(&mut self, probe_sql: &str, table: &str, context: &str) -> Option<Observed> {
        let mut tries: Vec<(&str, Option<&str>, bool)> = vec![("INSTANT", None, true)];
        if self.dialect == Dialect::MariaDb {
            tries.push(("NOCOPY", Some("NONE"), true));
        }
        tries.push(("INPLACE", Some("NONE"), true));
        if self.dialect == Dialect::MariaDb {
            tries.push(("NOCOPY", Some("SHARED"), false));
        }
        tries.push(("INPLACE", Some("SHARED"), false));
        tries.push(("COPY", None, false));
        let before = self.table_id(table);
        let mut out = None;
        for (algorithm, lock, lock_none) in tries {
            let clause = match lock {
                Some(l) => format!(", ALGORITHM={algorithm}, LOCK={l}"),
                None => format!(", ALGORITHM={algorithm}"),
            };
            match self.conn.query_drop(format!("{probe_sql}{clause}")) {
                Ok(()) => {
                    let after = self.table_id(table);
                    out = Some(Observed {
                        algorithm: Some(algorithm.to_string()),
                        lock_none: Some(lock_none),
                        rewrite: before.zip(after).map(|(b, a)| a != b),
                        ..Observed::default()
                    });
                    break;
                }
                Err(e) if refused(&e) => continue,
                Err(e) => {
                    out = Some(Observed {
                        error: Some(format!("{context}{}", message(&e))),
                        ..Observed::default()
                    });
                    break;
                }
            }
        }
        out
    }
}

/// The ALTER's table as written, and the ALTER aimed at the probe copy
/// with any ALGORITHM/LOCK clause removed (the probe sets its own).
pub fn retarget(text: &str) -> Option<(String, String)> {
    static HEAD: OnceLock<Regex> = OnceLock::new();
    let head = HEAD.get_or_init(|| {
        Regex::new(r"(?is)^\s*ALTER\s+(?:ONLINE\s+|IGNORE\s+)*TABLE\s+(?:IF\s+EXISTS\s+)?((?:`[^`]+`|[\w$]+)(?:\.(?:`[^`]+`|[\w$]+))?)")
            .expect("static regex")
    });
    let m = head.captures(text)?;
    let name = m.get(1)?;
    let rest = strip_forced(&text[name.end()..]);
    Some((
        name.as_str().to_string(),
        format!("{}`{PROBE}`{rest}", &text[..name.start()]),
    ))
}

/// The statement without its own ALGORITHM/LOCK clauses.
fn strip_forced(text: &str) -> String {
    static CLAUSE: OnceLock<Regex> = OnceLock::new();
    let clause = CLAUSE.get_or_init(|| {
        Regex::new(r"(?i),\s*(?:ALGORITHM|LOCK)\s*=?\s*[A-Z]+").expect("static regex")
    });
    let s = clause.replace_all(text, "");
    s.trim_end().trim_end_matches(';').to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn retarget_replaces_the_table_and_drops_forced_clauses() {
        let (t, sql) = super::retarget(
            "ALTER TABLE `shop`.payments ADD COLUMN note varchar(100), ALGORITHM=COPY, LOCK = SHARED",
        )
        .unwrap();
        assert_eq!(t, "`shop`.payments");
        assert_eq!(
            sql,
            "ALTER TABLE `_platcheck_probe` ADD COLUMN note varchar(100)"
        );
        assert!(super::retarget("SELECT 1").is_none());
    }
}
