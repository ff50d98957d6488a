//! The MariaDB/MySQL probe: one session set to `TRANSACTION READ ONLY`, a
//! `START TRANSACTION READ ONLY`, reads of global variables and
//! `information_schema.tables`, and a rollback. Permissions: any account can
//! read the variables; table estimates show only the tables the account has
//! some privilege on (grant `SELECT` on the schema, or `PROCESS` for the
//! replication status).
use super::Failure;
use super::facts::{Binlog, DbFacts, TableRows, numeric_version};
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
use std::collections::BTreeMap;
use std::time::Duration;

fn fail(e: mysql::Error) -> Failure {
    Failure::new(e.to_string())
}

/// A session in which every transaction is read-only. Public so the tests
/// can show that a write in it fails.
pub fn session(url: &str, timeout: Duration) -> Result<Conn, Failure> {
    // The driver reads `mysql://`; `mariadb://` is the same protocol.
    let url = url
        .strip_prefix("mariadb://")
        .map_or_else(|| url.to_string(), |rest| format!("mysql://{rest}"));
    let opts: Opts = OptsBuilder::from_opts(
        Opts::from_url(&url).map_err(|e| Failure::new(format!("bad MySQL URL: {e}")))?,
    )
    .tcp_connect_timeout(Some(timeout))
    .read_timeout(Some(timeout))
    .write_timeout(Some(timeout))
    .prefer_socket(false)
    .init(vec!["SET SESSION TRANSACTION READ ONLY"])
    .into();
    Conn::new(opts).map_err(fail)
}

/// Probes the server for a Cluster that names `tables`.
pub fn probe(url: &str, tables: &[String], timeout: Duration) -> Result<DbFacts, Failure> {
    let mut conn = session(url, timeout)?;
    conn.query_drop("START TRANSACTION READ ONLY")
        .map_err(fail)?;
    let version_text: String = conn
        .query_first("SELECT VERSION()")
        .map_err(fail)?
        .unwrap_or_default();
    let product = if version_text.to_ascii_lowercase().contains("mariadb") {
        "mariadb"
    } else {
        "mysql"
    };
    let vars: BTreeMap<String, String> = conn
        .query::<(String, String), _>(
            "SHOW GLOBAL VARIABLES WHERE Variable_name IN (\
             'rpl_semi_sync_master_enabled', 'rpl_semi_sync_source_enabled', \
             'rpl_semi_sync_master_wait_point', 'rpl_semi_sync_source_wait_point', \
             'max_connections', 'log_bin', 'binlog_format', 'gtid_mode', 'gtid_strict_mode')",
        )
        .map_err(fail)?
        .into_iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    let var = |k: &str| vars.get(k).cloned().unwrap_or_default();
    // MySQL 8.0.26 renamed master to source; MariaDB keeps master.
    let (enabled_key, point_key) = if vars.contains_key("rpl_semi_sync_source_enabled") {
        (
            "rpl_semi_sync_source_enabled",
            "rpl_semi_sync_source_wait_point",
        )
    } else {
        (
            "rpl_semi_sync_master_enabled",
            "rpl_semi_sync_master_wait_point",
        )
    };
    let semi = var(enabled_key);
    let sync_replication = semi.eq_ignore_ascii_case("ON");
    let sync_detail = if vars.contains_key(enabled_key) {
        format!("{enabled_key} = {semi}, {point_key} = {}", var(point_key))
    } else {
        "no semi-synchronous replication plugin loaded".to_string()
    };
    let log_bin = var("log_bin");
    let archive = log_bin.eq_ignore_ascii_case("ON");
    // MariaDB always writes GTIDs into the binlog; MySQL only with gtid_mode=ON.
    let (gtid, gtid_detail) = if product == "mariadb" {
        (
            true,
            format!("gtid_strict_mode = {}", var("gtid_strict_mode")),
        )
    } else {
        let g = var("gtid_mode");
        (g.eq_ignore_ascii_case("ON"), format!("gtid_mode = {g}"))
    };
    let mut rows = Vec::new();
    for t in tables {
        let (schema, table) = match t.split_once('.') {
            Some((s, t)) => (Some(s.to_string()), t.to_string()),
            None => (None, t.clone()),
        };
        let found: Option<Option<u64>> = conn
            .exec_first(
                "SELECT TABLE_ROWS FROM information_schema.tables \
                 WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?",
                (schema, table),
            )
            .map_err(fail)?;
        rows.push(TableRows {
            name: t.clone(),
            rows: found.map(|n| n.map(u128::from)),
        });
    }
    conn.query_drop("ROLLBACK").map_err(fail)?;
    Ok(DbFacts {
        product,
        version: numeric_version(&version_text),
        sync_replication,
        sync_detail,
        replicas: None,
        archive,
        archive_detail: format!("log_bin = {log_bin}"),
        archive_kind: "binlog-archive",
        max_connections: var("max_connections").parse().ok(),
        timeouts: Vec::new(),
        binlog: Some(Binlog {
            format: var("binlog_format"),
            gtid,
            gtid_detail,
        }),
        tables: rows,
    })
}
