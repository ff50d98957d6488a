//! The static side of verify: what the lock table expects of one
//! statement, read from the analysis (never restated here).
use super::{LockObs, Prediction};
use crate::sql::analysis::Stmt;
use crate::sql::locks::PgMode;

pub fn predict(st: &Stmt) -> Prediction {
    let scans = predicted_scans(st);
    let mut p = table_prediction(st, scans);
    let (certain, maybe) = toast_locks(st);
    let put = |list: &mut Vec<LockObs>, (rel, m): (String, PgMode)| match list
        .iter_mut()
        .find(|l| l.relation == rel)
    {
        Some(l) if PgMode::parse(&l.mode) < m => l.mode = m.as_str().to_string(),
        Some(_) => {}
        None => list.push(LockObs {
            relation: rel,
            mode: m.as_str().to_string(),
        }),
    };
    for c in certain {
        put(&mut p.locks, c);
    }
    for m in maybe
        .into_iter()
        .filter(|(r, _)| !p.locks.iter().any(|l| l.relation == *r))
    {
        put(&mut p.maybe, m);
    }
    p
}

/// The TOAST tables the rows lock and their indexes (`effects_toast`):
/// certain where the row always locks them in a transaction the replay
/// reads; a maybe where only a long value written takes them, where the
/// history does not say whether the table has one, or where the statement
/// is watched (a TOAST relation has no blocker, so its lock is seen only
/// if a sample catches it).
/// Relation name and mode.
type Named = Vec<(String, PgMode)>;

fn toast_locks(st: &Stmt) -> (Named, Named) {
    let (mut certain, mut maybe) = (Vec::new(), Vec::new());
    for l in crate::sql::effects_toast::toast_locks(&st.effects) {
        let out = if l.certain && l.in_tx {
            &mut certain
        } else {
            &mut maybe
        };
        out.push((l.relation, l.mode));
    }
    (certain, maybe)
}

fn table_prediction(st: &Stmt, scans: Scans) -> Prediction {
    Prediction {
        keys: st.effects.iter().map(|e| e.key.to_string()).collect(),
        locks: st
            .locks
            .iter()
            .map(|(n, m)| LockObs {
                relation: n.name.clone(),
                mode: m.as_str().to_string(),
            })
            .collect(),
        maybe: st
            .maybe_locks
            .iter()
            .map(|(n, m)| LockObs {
                relation: n.name.clone(),
                mode: m.as_str().to_string(),
            })
            .collect(),
        rewrite: st.rewrite,
        algorithm: st.plan.map(|p| p.algorithm.as_str().to_string()),
        lock_none: st.plan.map(|p| p.concurrent_dml),
        lock_exclusive: st.plan.is_some_and(|p| p.exclusive),
        refused: st.refused.clone(),
        secondary: st.secondary.clone(),
        scans: scans.certain,
        maybe_scans: scans.planned,
    }
}

struct Scans {
    certain: Vec<String>,
    planned: Vec<String>,
}

/// The tables a PostgreSQL statement reads in full, by the lock table: the
/// table of each row that scans (unless a condition removes the scan). The
/// rows are read where they live: a row whose other relations are the
/// partitions (ATTACH, an index on a partitioned table) or the referencing
/// tables (a foreign key validated again) scans those too; the referenced
/// table of a validated foreign key may be read, as the join's plan decides. A row
/// statement's scan is its plan's (`planned`). MySQL/MariaDB (a plan):
/// none, the algorithm says it.
fn predicted_scans(st: &Stmt) -> Scans {
    let mut s = Scans {
        certain: Vec::new(),
        planned: Vec::new(),
    };
    if st.plan.is_some() {
        return s;
    }
    let dml = matches!(st.op, Some(crate::sql::ops::Op::Dml { .. }));
    for e in st.effects.iter().filter(|e| !e.conditional) {
        let row = crate::sql::locks::pg(e.key);
        if !row.scan || e.covered {
            continue;
        }
        let out = if dml { &mut s.planned } else { &mut s.certain };
        out.extend(e.table.iter().map(|t| t.name.clone()));
        if matches!(row.other_relation.as_str(), "partition" | "referencing") {
            out.extend(e.other.iter().map(|t| t.name.clone()));
        }
        // A foreign key is validated by one join query: whether it reads the
        // referenced table in full (or probes its key index) is its plan's.
        if row.other_relation == "referenced" {
            s.planned.extend(e.other.iter().map(|t| t.name.clone()));
        }
    }
    for l in [&mut s.certain, &mut s.planned] {
        l.sort();
        l.dedup();
    }
    s
}
