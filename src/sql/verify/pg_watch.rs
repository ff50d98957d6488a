//! Statements that cannot run in a transaction block (CONCURRENTLY, VACUUM)
//! commit on their own, so their locks cannot be read before COMMIT. They
//! run on a worker session while this session samples `pg_locks` for the
//! worker's backend.
//!
//! Sampling alone misses a lock held for microseconds on a small table, so
//! the watch makes the statement wait where it can be seen: one blocker
//! session per existing table holds SHARE UPDATE EXCLUSIVE on it. Any
//! statement taking SHARE UPDATE EXCLUSIVE or stronger queues behind a
//! blocker, and the queued request (mode included) shows in `pg_locks`.
//! Each time the worker waits, the blocker it waits for is released (all
//! of them when it waits for a transaction, as CONCURRENTLY does for old
//! snapshots), until the statement ends.
use super::pg::{self, Snapshot, is_table, server_message, session, snapshot};
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

fn blockers(cfg: &Config, before: &Snapshot) -> Result<HashMap<u32, Client>, VerifyError> {
    let mut out = HashMap::new();
    for (oid, rel) in before.iter().filter(|(_, r)| is_table(&r.kind)) {
        let mut c = session(cfg)?;
        // ONLY: a partitioned parent's blocker must not also hold its partitions.
        let sql = format!(
            "BEGIN; LOCK TABLE ONLY {} IN SHARE UPDATE EXCLUSIVE MODE",
            quote(&rel.name)
        );
        if c.batch_execute(&sql).is_ok() {
            out.insert(*oid, c);
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
    let job = std::thread::spawn(move || worker.batch_execute(&text).map_err(|e| server_message(&e)));
    let mut seen: Vec<(u32, String)> = Vec::new();
    let start = Instant::now();
    let mut sampled_after_end = false;
    loop {
        let done = job.is_finished();
        let rows = sampler
            .query(
                "SELECT locktype, relation, mode, granted FROM pg_locks WHERE pid = $1",
                &[&pid],
            )
            .map_err(err)?;
        let mut waits_on: Option<Option<u32>> = None;
        for r in &rows {
            let locktype: String = r.get(0);
            let relation: Option<u32> = r.get(1);
            let mode: String = r.get(2);
            let granted: bool = r.get(3);
            if let (true, Some(oid)) = (locktype == "relation", relation)
                && !seen.contains(&(oid, mode.clone()))
            {
                seen.push((oid, mode));
            }
            if !granted {
                waits_on = Some(relation.filter(|_| locktype == "relation"));
            }
        }
        match waits_on {
            Some(Some(oid)) if held.contains_key(&oid) => {
                if let Some(c) = held.remove(&oid) {
                    release(c);
                }
            }
            Some(_) => held.drain().for_each(|(_, c)| release(c)),
            None => {}
        }
        if done {
            // One more sample after the end is harmless; none is needed.
            if sampled_after_end {
                break;
            }
            sampled_after_end = true;
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
