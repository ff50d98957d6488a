//! The Redis probe of a dedup tier: `INFO` and `CONFIG GET` only, both
//! read-only commands. Permissions: with ACLs, `+info +config|get` (where
//! CONFIG is renamed or refused, as on some managed services, the `save`
//! schedule is unknown and only `INFO` decides).
use super::Failure;
use super::facts::{RedisFacts, numeric_version};
use std::collections::BTreeMap;
use std::time::Duration;

fn fail(e: redis::RedisError) -> Failure {
    Failure::new(e.to_string())
}

/// A connection with a time limit on connecting and on every reply.
pub fn session(url: &str, timeout: Duration) -> Result<redis::Connection, Failure> {
    let client =
        redis::Client::open(url).map_err(|e| Failure::new(format!("bad Redis URL: {e}")))?;
    let conn = client.get_connection_with_timeout(timeout).map_err(fail)?;
    conn.set_read_timeout(Some(timeout)).map_err(fail)?;
    conn.set_write_timeout(Some(timeout)).map_err(fail)?;
    Ok(conn)
}

fn info(conn: &mut redis::Connection, section: &str) -> Result<BTreeMap<String, String>, Failure> {
    let text: String = redis::cmd("INFO").arg(section).query(conn).map_err(fail)?;
    Ok(text
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect())
}

pub fn probe(url: &str, timeout: Duration) -> Result<RedisFacts, Failure> {
    let mut conn = session(url, timeout)?;
    let server = info(&mut conn, "server")?;
    let memory = info(&mut conn, "memory")?;
    let persistence = info(&mut conn, "persistence")?;
    let replication = info(&mut conn, "replication")?;
    let save: Option<String> = redis::cmd("CONFIG")
        .arg("GET")
        .arg("save")
        .query::<Vec<String>>(&mut conn)
        .ok()
        .and_then(|kv| kv.get(1).cloned());
    let get = |m: &BTreeMap<String, String>, k: &str| m.get(k).cloned().unwrap_or_default();
    Ok(RedisFacts {
        version: numeric_version(&get(&server, "redis_version")),
        maxmemory_policy: get(&memory, "maxmemory_policy"),
        appendonly: get(&persistence, "aof_enabled") == "1",
        save,
        role: get(&replication, "role"),
        connected_replicas: get(&replication, "connected_slaves").parse().unwrap_or(0),
    })
}
