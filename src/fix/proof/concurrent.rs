//! The locks a CONCURRENTLY statement takes while it runs, seen from a
//! second session: it runs outside any transaction, so its own session
//! cannot be asked between its phases. A third session holds a snapshot
//! and a read of every table, which makes the build (or drop) wait for it
//! part-way, so the watcher sees the statement mid-flight however small
//! the table; the watcher samples `pg_locks` of the statement's backend
//! until it finishes.
use crate::sql::locks::PgMode;
use crate::sql::verify::pg::mode_name;
use postgres::{Client, Config, NoTls};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What the watcher saw (user tables only: oids from 16384 on, so the
/// catalog rows the statement writes, `pg_class` and the like, are not
/// mistaken for the table).
#[derive(Debug, Default)]
pub struct Seen {
    /// The strongest lock held on each table with rows.
    pub strongest: BTreeMap<String, PgMode>,
    pub samples: usize,
    /// The statement was seen waiting for the holder (mid-flight).
    pub waited: bool,
    /// Samples that found the statement holding any lock (running).
    pub running: usize,
}

impl Seen {
    /// No sample found it running: its locks are unproven.
    pub fn unseen(&self) -> bool {
        self.running == 0
    }

    /// Tables it held SHARE or stronger on: writes waited for them.
    pub fn blocking(&self) -> Vec<(String, PgMode)> {
        self.strongest
            .iter()
            .filter(|(_, m)| **m >= PgMode::Share)
            .map(|(t, m)| (t.clone(), *m))
            .collect()
    }

    pub fn describe(&self) -> String {
        let held: Vec<String> = self
            .strongest
            .iter()
            .map(|(t, m)| format!("{} on {t}", m.as_str()))
            .collect();
        format!(
            "held {} while it ran ({} samples{})",
            if held.is_empty() {
                "no table lock".to_string()
            } else {
                held.join(", ")
            },
            self.samples,
            if self.waited { ", seen mid-flight" } else { "" }
        )
    }
}

/// Runs `sql` on `c` (outside a transaction) while watching its locks.
/// `Ok(Err(_))`: the server refused the statement.
pub fn observe(
    cfg: &Config,
    c: &mut Client,
    sql: &str,
) -> Result<Result<Seen, postgres::Error>, String> {
    let err = |e: postgres::Error| crate::sql::verify::pg::server_message(&e);
    let pid: i32 = c
        .query_one("SELECT pg_backend_pid()", &[])
        .map_err(err)?
        .get(0);
    let mut holder = cfg.connect(NoTls).map_err(err)?;
    let mut watcher = cfg.connect(NoTls).map_err(err)?;
    holder
        .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        .map_err(err)?;
    let tables: Vec<String> = holder
        .query(
            "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') \
             AND n.nspname NOT LIKE 'pg\\_%'",
            &[],
        )
        .map_err(err)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    for t in &tables {
        holder
            .batch_execute(&format!("SELECT 1 FROM {t} LIMIT 1"))
            .map_err(err)?;
    }
    let mut seen = Seen::default();
    let outcome = std::thread::scope(|s| {
        let run = s.spawn(|| c.batch_execute(sql));
        let started = Instant::now();
        let mut released = false;
        loop {
            let done = run.is_finished();
            let rows = watcher
                .query(
                    "SELECT coalesce(c.relname::text, ''), l.mode, l.granted, \
                     coalesce(c.relkind::text, '') IN ('r', 'p') AND c.reltuples > 0 AND c.oid >= 16384 \
                     FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1",
                    &[&pid],
                )
                .map_err(err)?;
            seen.samples += 1;
            if !rows.is_empty() && !done {
                seen.running += 1;
            }
            for r in &rows {
                let (table, mode, granted, has_rows): (String, &str, bool, bool) =
                    (r.get(0), r.get(1), r.get(2), r.get(3));
                if !granted {
                    seen.waited = true;
                } else if has_rows {
                    let m = mode_name(mode);
                    let e = seen.strongest.entry(table).or_insert(m);
                    *e = (*e).max(m);
                }
            }
            // Let the statement finish once it was seen waiting (or, for
            // a statement that never waits for snapshots, after a while).
            if !released && (seen.waited || started.elapsed() > Duration::from_secs(30)) {
                holder.batch_execute("COMMIT").map_err(err)?;
                released = true;
            }
            if done {
                if !released {
                    holder.batch_execute("COMMIT").map_err(err)?;
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        run.join()
            .map_err(|_| "the statement's thread panicked".to_string())
    })?;
    Ok(outcome.map(|()| seen))
}
