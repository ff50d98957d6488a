//! The lock watcher's sessions: a bounded pool (`--watch-connections`,
//! default 8), reused from one watched statement to the next. A watch that
//! would need more blocker sessions than the pool holds lets tables share
//! them, and the run says so: one connection per table per lock mode is
//! how a shared server runs out of connections (the bulkhead the
//! principal engineer's handbook asks for, applied to verify itself).
use super::VerifyError;
use super::pg::session;
use postgres::{Client, Config};

pub struct Pool {
    cfg: Config,
    max: usize,
    idle: Vec<Client>,
    out: usize,
    shared: usize,
    widest: usize,
}

impl Pool {
    /// At least two: the worker and one blocker.
    pub fn new(cfg: Config, max: usize) -> Pool {
        Pool {
            cfg,
            max: max.max(2),
            idle: Vec::new(),
            out: 0,
            shared: 0,
            widest: 0,
        }
    }

    pub fn capacity(&self) -> usize {
        self.max
    }

    /// A session, reused if one is idle; never more than `max` at once.
    pub fn get(&mut self) -> Result<Client, VerifyError> {
        if self.out >= self.max {
            return Err(VerifyError(format!(
                "internal: the lock watcher asked for more than its {} sessions",
                self.max
            )));
        }
        let c = match self.idle.pop() {
            Some(c) if !c.is_closed() => c,
            _ => session(&self.cfg)?,
        };
        self.out += 1;
        Ok(c)
    }

    /// Back to the pool: its transaction (and every lock in it) ends.
    pub fn put(&mut self, mut c: Client) {
        self.out = self.out.saturating_sub(1);
        if c.batch_execute("ROLLBACK").is_ok() && !c.is_closed() {
            self.idle.push(c);
        }
    }

    /// A session that did not come back (its thread failed).
    pub fn lost(&mut self) {
        self.out = self.out.saturating_sub(1);
    }

    /// One watch let `tables` tables share fewer sessions than two each.
    pub fn record_shared(&mut self, tables: usize) {
        self.shared += 1;
        self.widest = self.widest.max(tables);
    }

    pub fn notes(&self) -> Vec<String> {
        if self.shared == 0 {
            return Vec::new();
        }
        vec![format!(
            "the lock watcher serialised: for {} statement{} up to {} tables would need {} blocker sessions, and its pool holds {} (--watch-connections); tables shared sessions, so a lock taken on a table after its session was released for another one is seen by sampling only",
            self.shared,
            if self.shared == 1 { "" } else { "s" },
            self.widest,
            self.widest * 2,
            self.max
        )]
    }
}

/// Tables per blocker session for one lock mode: predicted tables get a
/// session of their own while there are sessions to spare, the others
/// share the rest in turn.
pub fn assign(tables: &[String], predicted: &[String], sessions: usize) -> Vec<Vec<String>> {
    if sessions == 0 || tables.is_empty() {
        return Vec::new();
    }
    if tables.len() <= sessions {
        return tables.iter().map(|t| vec![t.clone()]).collect();
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    let first: Vec<&String> = tables
        .iter()
        .filter(|t| predicted.contains(t))
        .take(sessions - 1)
        .collect();
    for t in &first {
        groups.push(vec![(*t).clone()]);
    }
    let shared = sessions - groups.len();
    let rest: Vec<&String> = tables.iter().filter(|t| !first.contains(t)).collect();
    let mut buckets = vec![Vec::new(); shared];
    for (i, t) in rest.into_iter().enumerate() {
        buckets[i % shared].push(t.clone());
    }
    groups.extend(buckets);
    groups
}

/// Locks each table of the group in `mode` on a fresh transaction of `c`;
/// a table the session may not lock is left out. False: nothing locked.
pub fn lock_group(c: &mut Client, tables: &[String], mode: &str) -> bool {
    if c.batch_execute("BEGIN").is_err() {
        return false;
    }
    let mut any = false;
    for t in tables {
        // ONLY: a partitioned parent's blocker must not also hold its partitions.
        let sql = format!(
            "SAVEPOINT pc_block; LOCK TABLE ONLY \"{}\" IN {mode} MODE; RELEASE SAVEPOINT pc_block",
            t.replace('"', "\"\"")
        );
        match c.batch_execute(&sql) {
            Ok(()) => any = true,
            Err(_) => {
                if c.batch_execute("ROLLBACK TO SAVEPOINT pc_block").is_err() {
                    return any;
                }
            }
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::assign;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    #[test]
    fn one_session_per_table_while_they_last() {
        let g = assign(&names(3), &[], 4);
        assert_eq!(g.len(), 3);
        assert!(g.iter().all(|g| g.len() == 1));
    }

    #[test]
    fn predicted_tables_keep_their_own_session_when_tables_share() {
        let tables = names(30);
        let g = assign(&tables, &["t7".into(), "t9".into()], 4);
        assert_eq!(g.len(), 4);
        assert_eq!(g[0], vec!["t7".to_string()]);
        assert_eq!(g[1], vec!["t9".to_string()]);
        assert_eq!(g.iter().map(Vec::len).sum::<usize>(), 30);
        assert!(assign(&tables, &[], 0).is_empty());
    }
}
