//! Statements that cannot run in a transaction block (CONCURRENTLY, VACUUM)
//! commit on their own, so their locks cannot be read before COMMIT. They
//! run on a worker session while this session samples `pg_locks` for the
//! worker's backend.
//!
//! Sampling alone misses a lock held for microseconds on a small table, so
//! the watch makes every lock request wait where it can be seen. Existing
//! tables get blocker sessions: some holding SHARE UPDATE EXCLUSIVE (every
//! request of that mode or stronger queues behind it) and some holding
//! ACCESS SHARE (an ACCESS EXCLUSIVE request taken later, in a second
//! transaction of the statement, still queues). A queued request shows in
//! `pg_locks` with its mode. Whenever the worker waits, exactly the
//! sessions `pg_blocking_pids` names are released, so the remaining
//! blockers keep catching the statement's later requests. The sessions
//! come from a bounded pool (`pg_pool`); with more tables than it holds,
//! tables share blockers and the run says so.
//!
//! Indexes get no blocker, and none could help: SQL holds a lock weaker
//! than SHARE UPDATE EXCLUSIVE on an index only by planning a query on its
//! table, which locks the table too, and the CONCURRENTLY forms wait for
//! every transaction holding a lock on the table (by transaction id) before
//! their last request on the index (DROP INDEX CONCURRENTLY's ACCESS
//! EXCLUSIVE, REINDEX CONCURRENTLY's drop of the old copy); a transaction
//! begun later no longer sees the dead index. So that lock is seen only when
//! a sample catches it (`tests/verify_oracle_watch.rs` asks the server).
use super::limits::Limits;
use super::pg::{self, is_table, server_message, snapshot};
use super::pg_exec::Session;
use super::pg_pool::{self, Pool};
use super::pg_scans;
use super::{Observed, VerifyError};
use postgres::{Client, Config};
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn err(e: postgres::Error) -> VerifyError {
    VerifyError(server_message(&e))
}

/// What one watch needs: the pool, the limits, the URL's user on the
/// scratch database (to end a runaway worker), and the tables the lock
/// table predicts (they keep a blocker of their own when tables share).
pub struct Watch<'a> {
    pub pool: &'a mut Pool,
    pub limits: &'a Limits,
    pub admin: &'a Config,
    pub predicted: Vec<String>,
    /// Scans can be counted exactly (`pg_scans::observable`).
    pub count_scans: bool,
}

/// Blocker sessions by backend pid.
fn blockers(
    w: &mut Watch,
    before: &pg::Snapshot,
    sessions: usize,
) -> Result<HashMap<i32, Client>, VerifyError> {
    let mut tables: Vec<String> = before
        .values()
        .filter(|r| is_table(&r.kind))
        .map(|r| r.name.clone())
        .collect();
    tables.sort();
    tables.dedup();
    let sue = sessions.div_ceil(2);
    let plan = [
        (
            "SHARE UPDATE EXCLUSIVE",
            pg_pool::assign(&tables, &w.predicted, sue),
        ),
        (
            "ACCESS SHARE",
            pg_pool::assign(&tables, &w.predicted, sessions - sue),
        ),
    ];
    if tables.len() * 2 > sessions {
        w.pool.record_shared(tables.len());
    }
    let mut out = HashMap::new();
    for (mode, groups) in plan {
        for group in groups {
            let mut c = w.pool.get()?;
            let pid: i32 = c
                .query_one("SELECT pg_backend_pid()", &[])
                .map_err(err)?
                .get(0);
            if pg_pool::lock_group(&mut c, &group, mode) {
                out.insert(pid, c);
            } else {
                w.pool.put(c);
            }
        }
    }
    Ok(out)
}

pub fn run(w: &mut Watch, sampler: &mut Client, sql: &str) -> Result<Observed, VerifyError> {
    let before = snapshot(sampler)?;
    let mut worker = Session::new(w.pool.get()?)?;
    let pid = worker.pid;
    let count_scans = w.count_scans;
    // Both sessions flushed: the shared counts then hold everything, and
    // only the worker's statement can add to them.
    let scans_before = if count_scans {
        pg_scans::flush(&mut worker.client)?;
        pg_scans::flush(sampler)?;
        pg_scans::counts(sampler, false)?
    } else {
        None
    };
    let sessions = w.pool.capacity() - 1;
    let mut held = blockers(w, &before, sessions)?;
    let text = sql.to_string();
    let (limits, admin) = (w.limits.clone(), w.admin.clone());
    let job = std::thread::spawn(move || {
        let r = worker.run(&text, &limits, &admin);
        // Its counts reach the shared statistics before the answer does.
        let flushed = !count_scans || pg_scans::flush(&mut worker.client).is_ok();
        (worker, r, flushed)
    });
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
        // The statement is past its limit: let the cancel through.
        if start.elapsed() > w.limits.statement {
            held.drain().for_each(|(_, c)| w.pool.put(c));
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
                w.pool.put(c);
            }
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    held.drain().for_each(|(_, c)| w.pool.put(c));
    let mut flushed = false;
    let result = match job.join() {
        Ok((worker, r, f)) => {
            w.pool.put(worker.client);
            flushed = f;
            r?
        }
        Err(_) => {
            w.pool.lost();
            Err("the worker session panicked".to_string())
        }
    };
    if let Err(e) = result {
        return Ok(Observed {
            error: Some(e),
            watched: true,
            ..Observed::default()
        });
    }
    let after = snapshot(sampler)?;
    let mut o = pg::diff(&before, &after, &seen, &w.predicted);
    o.watched = true;
    if let (Some(b), true) = (scans_before, flushed) {
        o.scans = pg_scans::counts(sampler, false)?.map(|a| pg_scans::scanned(&b, &a, &before));
    }
    Ok(o)
}
