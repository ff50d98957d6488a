//! MySQL's and MariaDB's scratch place: a database marked with its maker
//! (MariaDB: the database's comment; MySQL, which has none: a one-row
//! table in it), and a sandbox account the replay logs in as, with every
//! privilege on the scratch database and none anywhere else — no FILE, no
//! SUPER, no CREATE USER — so a statement the gate could not read in
//! advance (`PREPARE s FROM @sql`) meets the server's own checks.
use super::my::message;
use super::scratch::{self, Marker, PREFIX, literal};
use super::signals::{self, Registration};
use super::{Options, VerifyError};
use crate::sql::Dialect;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};

const MARKER_TABLE: &str = "_platcheck_marker";

fn err(e: mysql::Error) -> VerifyError {
    VerifyError(message(&e))
}

pub struct Place {
    pub name: String,
    /// The sandbox account: user, host, password.
    pub account: Option<(String, String, String)>,
    pub notes: Vec<String>,
    _cleanup: Registration,
}

/// Drops what one run made, from a fresh connection: the account's and the
/// database's sessions first (their metadata locks would make the DROP
/// wait), then the account, then the database.
pub fn drop_place(admin: &Opts, name: &str) -> Result<(), String> {
    let mut c = Conn::new(admin.clone()).map_err(|e| message(&e))?;
    let ids: Vec<u64> = c
        .exec(
            "SELECT ID FROM information_schema.PROCESSLIST WHERE (DB = ? OR USER = ?) AND ID <> CONNECTION_ID()",
            (name, name),
        )
        .unwrap_or_default();
    for id in ids {
        let _ = c.query_drop(format!("KILL {id}"));
    }
    let hosts: Vec<String> = c
        .exec("SELECT Host FROM mysql.user WHERE User = ?", (name,))
        .unwrap_or_default();
    for h in hosts {
        let _ = c.query_drop(format!(
            "DROP USER IF EXISTS {}@{}",
            literal(name),
            literal(&h)
        ));
    }
    c.query_drop(format!("DROP DATABASE IF EXISTS `{name}`"))
        .map_err(|e| message(&e))
}

fn marker_of(c: &mut Conn, db: &str, dialect: Dialect) -> Option<Marker> {
    let text: Option<String> = if dialect == Dialect::MariaDb {
        c.exec_first(
            "SELECT SCHEMA_COMMENT FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
            (db,),
        )
        .ok()
        .flatten()
    } else {
        c.query_first(format!("SELECT marker FROM `{db}`.`{MARKER_TABLE}`"))
            .ok()
            .flatten()
    };
    Marker::parse(&text?)
}

/// Removes scratch databases (and their accounts) whose marker names a
/// process that is gone.
pub fn sweep(c: &mut Conn, admin: &Opts, dialect: Dialect) -> Vec<String> {
    let pattern = format!("{}%", PREFIX.replace('_', "\\_"));
    let dbs: Vec<String> = c
        .exec(
            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?",
            (pattern,),
        )
        .unwrap_or_default();
    let mut notes = Vec::new();
    for db in dbs {
        let Some(m) = marker_of(c, &db, dialect) else {
            continue;
        };
        if !m.is_gone() {
            continue;
        }
        notes.push(match drop_place(admin, &db) {
            Ok(()) => format!(
                "removed the scratch database {db} left by an earlier run (pid {} on {}, no longer running)",
                m.pid, m.host
            ),
            Err(e) => format!("could not remove the scratch database {db} left by an earlier run: {e}"),
        });
    }
    notes
}

pub fn create(
    c: &mut Conn,
    admin: &Opts,
    dialect: Dialect,
    opts: &Options,
) -> Result<Place, VerifyError> {
    let mut notes = sweep(c, admin, dialect);
    let name = scratch::unique_name();
    let marker = literal(&Marker::ours().text());
    let create = if dialect == Dialect::MariaDb {
        format!("CREATE DATABASE `{name}` COMMENT {marker}")
    } else {
        format!("CREATE DATABASE `{name}`")
    };
    c.query_drop(create).map_err(err)?;
    let (admin_opts, cleanup_name) = (admin.clone(), name.clone());
    let cleanup = signals::register(move || {
        if let Err(e) = drop_place(&admin_opts, &cleanup_name) {
            eprintln!(
                "platcheck: could not drop scratch database {cleanup_name}: {e} (the next verify run against this server removes it)"
            );
        }
    });
    if dialect != Dialect::MariaDb {
        c.query_drop(format!(
            "CREATE TABLE `{name}`.`{MARKER_TABLE}` (marker varchar(512)); INSERT INTO `{name}`.`{MARKER_TABLE}` VALUES ({marker})"
        ))
        .map_err(err)?;
    }
    let account = if opts.allow_cluster_wide {
        None
    } else {
        match sandbox(c, admin, &name, opts) {
            Ok(a) => Some(a),
            Err(why) => {
                notes.push(format!(
                    "no sandbox account ({why}): the replay runs as the URL's own user, behind the statement gate alone"
                ));
                None
            }
        }
    };
    Ok(Place {
        name,
        account,
        notes,
        _cleanup: cleanup,
    })
}

fn sandbox(
    c: &mut Conn,
    admin: &Opts,
    name: &str,
    opts: &Options,
) -> Result<(String, String, String), String> {
    // The host the server sees this client connect from: the account must
    // match it exactly (an anonymous ''@host would win over 'x'@'%').
    let who: String = c
        .query_first("SELECT USER()")
        .map_err(|e| message(&e))?
        .unwrap_or_default();
    let host = who
        .rsplit_once('@')
        .map_or("localhost", |(_, h)| h)
        .to_string();
    let password = scratch::secret();
    let account = format!("{}@{}", literal(name), literal(&host));
    let limit = opts.watch_connections + 4;
    c.query_drop(format!(
        "CREATE USER {account} IDENTIFIED BY {} WITH MAX_USER_CONNECTIONS {limit}",
        literal(&password)
    ))
    .map_err(|e| message(&e))?;
    c.query_drop(format!("GRANT ALL PRIVILEGES ON `{name}`.* TO {account}"))
        .map_err(|e| message(&e))?;
    let login = replay_opts(
        admin,
        name,
        Some(&(name.to_string(), host.clone(), password.clone())),
    );
    Conn::new(login).map_err(|e| {
        format!(
            "the server refused the sandbox account's login: {}",
            message(&e)
        )
    })?;
    Ok((name.to_string(), host, password))
}

/// A session on the scratch database: as the sandbox account when there
/// is one; no statement cache (a migration's DDL would invalidate it).
pub fn replay_opts(admin: &Opts, db: &str, account: Option<&(String, String, String)>) -> Opts {
    let mut b = OptsBuilder::from_opts(admin.clone())
        .db_name(Some(db))
        .stmt_cache_size(0);
    if let Some((user, _, password)) = account {
        b = b.user(Some(user.as_str())).pass(Some(password.as_str()));
    }
    b.into()
}
