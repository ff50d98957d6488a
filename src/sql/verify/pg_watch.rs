//! Statements that cannot run in a transaction block (CONCURRENTLY, VACUUM)
//! commit on their own, so their locks cannot be read before COMMIT. They
//! run on a worker session while this session samples `pg_locks` for the
//! worker's backend.
//!
//! Sampling alone misses a lock held for microseconds on a small table, so
//! the watch makes every lock request wait where it can be seen. Each
//! existing table gets two blocker sessions: one holding SHARE UPDATE
//! EXCLUSIVE (every request of that mode or stronger queues behind it) and
//! one holding ACCESS SHARE (an ACCESS EXCLUSIVE request taken later, in a
//! second transaction of the statement, still queues). A queued request
//! shows in `pg_locks` with its mode. Whenever the worker waits, exactly
//! the sessions `pg_blocking_pids` names are released, so the remaining
//! blockers keep catching the statement's later requests.
use super::pg::{self, is_table, server_message, session, snapshot};
use super::{Observed, VerifyError};
use postgres::{Client, Config};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A statement still not done after this is left to its own timeouts.
const WATCH_LIMIT: Duration = Duration::from_secs(150);

fn err(e: postgres::Error) -> VerifyError {
    VerifyError(server_message(&e))
}

fn quote(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

/// Blocker sessions by backend pid.
fn blockers(cfg: &Config, before: &pg::Snapshot) -> Result<HashMap<i32, Client>, VerifyError> {
    let mut out = HashMap::new();
    for rel in before.values().filter(|r| is_table(&r.kind)) {
        for mode in ["SHARE UPDATE EXCLUSIVE", "ACCESS SHARE"] {
            let mut c = session(cfg)?;
            let pid: i32 = c
                .query_one("SELECT pg_backend_pid()", &[])
                .map_err(err)?
                .get(0);
            // ONLY: a partitioned parent's blocker must not also hold its partitions.
            let sql = format!("BEGIN; LOCK TABLE ONLY {} IN {mode} MODE", quote(&rel.name));
            if c.batch_execute(&sql).is_ok() {
                out.insert(pid, c);
            }
        }
    }
    Ok(out)
}

fn release(c: Client) {
    // Closing the session ends its transaction and frees the lock.
    let _ = c.close();
}

pub fn run(cfg: &Config, sampler: &mut Client, sql: &str) -> Result<Observed, VerifyError> {
    let before = snapshot(sampler)?;
    let mut worker = session(cfg)?;
    let pid: i32 = worker
        .query_one("SELECT pg_backend_pid()", &[])
        .map_err(err)?
        .get(0);
    let mut held = blockers(cfg, &before)?;
    let text = sql.to_string();
    let job =
        std::thread::spawn(move || worker.batch_execute(&text).map_err(|e| server_message(&e)));
    let mut seen: Vec<(u32, String)> = Vec::new();
    let start = Instant::now();
    loop {
        let done = job.is_finished();
        let rows = sampler
            .query(
                "SELECT locktype, relation, mode, granted FROM pg_locks WHERE pid = $1",
                &[&pid],
            )
            .map_err(err)?;
        let mut waiting = false;
        for r in &rows {
            let (locktype, relation, mode, granted): (String, Option<u32>, String, bool) =
                (r.get(0), r.get(1), r.get(2), r.get(3));
            waiting |= !granted;
            if let (true, Some(oid)) = (locktype == "relation", relation)
                && !seen.contains(&(oid, mode.clone()))
            {
                seen.push((oid, mode));
            }
        }
        if done {
            break;
        }
        // Release only once the queued request is in a sample: released
        // earlier, a fast statement could take and drop it unseen.
        if !waiting {
            std::thread::sleep(Duration::from_micros(200));
            continue;
        }
        let blocking: Vec<i32> = sampler
            .query("SELECT unnest(pg_blocking_pids($1))", &[&pid])
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        for b in blocking {
            if let Some(c) = held.remove(&b) {
                release(c);
            }
        }
        if start.elapsed() > WATCH_LIMIT {
            held.drain().for_each(|(_, c)| release(c));
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    held.drain().for_each(|(_, c)| release(c));
    let result = job
        .join()
        .unwrap_or_else(|_| Err("the worker session panicked".to_string()));
    if let Err(e) = result {
        return Ok(Observed {
            error: Some(e),
            watched: true,
            ..Observed::default()
        });
    }
    let after = snapshot(sampler)?;
    let mut o = pg::diff(&before, &after, &seen);
    o.watched = true;
    Ok(o)
}
