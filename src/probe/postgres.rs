//! The PostgreSQL probe: one read-only session (`default_transaction_read_only`
//! at connect, then a `READ ONLY` transaction), reads of settings,
//! `pg_stat_replication` and `pg_class`, and a rollback. Permissions: any
//! role may read the settings and `pg_class`; the replica columns of
//! `pg_stat_replication` need `pg_monitor` (without it the rows are counted
//! but their state reads as `insufficient privilege`).
use super::Failure;
use super::facts::{DbFacts, Replica, TableRows, numeric_version};
use postgres::{Client, Config, NoTls};
use std::time::Duration;

/// The server's own words for an error, with every cause (a connection
/// error has no SQLSTATE).
fn message(e: &postgres::Error) -> String {
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

fn fail(e: postgres::Error) -> Failure {
    Failure::new(message(&e))
}

/// A session that cannot write: every transaction it starts is read-only
/// unless it says otherwise, and the probe never says otherwise. Public so
/// the tests can show that a write in it fails.
pub fn session(url: &str, timeout: Duration) -> Result<Client, Failure> {
    let mut cfg: Config = url.parse().map_err(|e: postgres::Error| {
        Failure::new(format!("bad PostgreSQL URL: {}", message(&e)))
    })?;
    cfg.connect_timeout(timeout);
    cfg.tcp_user_timeout(timeout);
    cfg.application_name("platcheck-probe");
    // Set at connect, before any statement, so nothing runs writable.
    let mut options = cfg.get_options().unwrap_or_default().to_string();
    options.push_str(" -c default_transaction_read_only=on");
    cfg.options(options.trim());
    cfg.connect(NoTls).map_err(fail)
}

/// Probes the server for a Cluster that names `tables`.
pub fn probe(url: &str, tables: &[String], timeout: Duration) -> Result<DbFacts, Failure> {
    let mut client = session(url, timeout)?;
    let mut tx = client
        .build_transaction()
        .read_only(true)
        .start()
        .map_err(fail)?;
    let setting = |tx: &mut postgres::Transaction, name: &str| -> Result<String, Failure> {
        tx.query_opt("SELECT setting FROM pg_settings WHERE name = $1", &[&name])
            .map_err(fail)
            .map(|r| r.map(|r| r.get::<_, String>(0)).unwrap_or_default())
    };
    // The session defaults are read before the probe bounds its own queries.
    let mut timeouts = Vec::new();
    for name in ["statement_timeout", "idle_in_transaction_session_timeout"] {
        timeouts.push((name, setting(&mut tx, name)?.parse::<i64>().unwrap_or(0)));
    }
    let ms = timeout.as_millis().max(1);
    tx.batch_execute(&format!("SET LOCAL statement_timeout = {ms}"))
        .map_err(fail)?;
    let version = numeric_version(&setting(&mut tx, "server_version")?);
    let standby_names = setting(&mut tx, "synchronous_standby_names")?;
    let commit = setting(&mut tx, "synchronous_commit")?;
    let waits = matches!(commit.as_str(), "on" | "remote_write" | "remote_apply");
    let sync_replication = !standby_names.trim().is_empty() && waits;
    let sync_detail =
        format!("synchronous_standby_names = '{standby_names}', synchronous_commit = {commit}");
    let replicas = tx
        .query(
            "SELECT coalesce(application_name, ''), coalesce(state, 'insufficient privilege'), \
             coalesce(sync_state, ''), \
             (extract(epoch FROM replay_lag) * 1000)::bigint \
             FROM pg_stat_replication ORDER BY 1",
            &[],
        )
        .map_err(fail)?
        .iter()
        .map(|r| Replica {
            name: r.get(0),
            state: r.get(1),
            sync_state: r.get(2),
            replay_lag_ms: r.get(3),
        })
        .collect();
    let archive_mode = setting(&mut tx, "archive_mode")?;
    let archive_command = setting(&mut tx, "archive_command")?;
    let archive_library = setting(&mut tx, "archive_library")?;
    let wal_level = setting(&mut tx, "wal_level")?;
    let command_set = !archive_command.trim().is_empty() && archive_command != "(disabled)";
    let archive = matches!(archive_mode.as_str(), "on" | "always")
        && (command_set || !archive_library.is_empty())
        && wal_level != "minimal";
    let archive_detail = format!(
        "archive_mode = {archive_mode}, archive_command = '{archive_command}'{}, wal_level = {wal_level}",
        if archive_library.is_empty() {
            String::new()
        } else {
            format!(", archive_library = '{archive_library}'")
        }
    );
    let max_connections = setting(&mut tx, "max_connections")?.parse().ok();
    let mut rows = Vec::new();
    for t in tables {
        // to_regclass resolves the name as a query would (search_path,
        // quoting) and is NULL, not an error, for a missing table.
        let r = tx
            .query_opt(
                "SELECT reltuples::float8 FROM pg_class WHERE oid = to_regclass($1)",
                &[t],
            )
            .map_err(fail)?;
        rows.push(TableRows {
            name: t.clone(),
            // -1: never vacuumed or analysed, so no estimate yet.
            rows: r.map(|r| {
                let n: f64 = r.get(0);
                (n >= 0.0).then(|| n.round() as u128)
            }),
        });
    }
    tx.rollback().map_err(fail)?;
    Ok(DbFacts {
        product: "postgresql",
        version,
        sync_replication,
        sync_detail,
        replicas: Some(replicas),
        archive,
        archive_detail,
        archive_kind: "wal-archive",
        max_connections,
        timeouts,
        binlog: None,
        tables: rows,
    })
}
