//! Prediction against observation: each difference as a sentence naming
//! both sides (the MG900 message). Shared by the live replay, the
//! `--observed` replay and the MG900 rule reading a recording.
use super::{Observed, Prediction};
use crate::sql::locks::PgMode;
use crate::sql::schema::{toast_index_name, toast_name};
use std::collections::BTreeMap;

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn dml(lock_none: Option<bool>, exclusive: bool) -> &'static str {
    match lock_none {
        _ if exclusive => "LOCK=EXCLUSIVE",
        Some(true) => "LOCK=NONE",
        Some(false) => "LOCK=SHARED",
        None => "LOCK=?",
    }
}

pub fn compare(p: &Prediction, o: &Observed) -> Vec<String> {
    // Not run: nothing to compare (a withheld statement is MG901's).
    if o.skipped.is_some() || o.withheld.is_some() {
        return Vec::new();
    }
    match (&p.refused, &o.error) {
        (Some(_), Some(_)) => return Vec::new(),
        (Some(why), None) => {
            return vec![format!(
                "predicted the server refuses it ({why}), and the server ran it"
            )];
        }
        (None, Some(e)) => {
            return vec![match &o.refusal {
                Some(why) => format!("the server refused the statement: {}: {e}", why.sentence()),
                None => format!("the server refused the statement: {e}"),
            }];
        }
        (None, None) => {}
    }
    let mut out = Vec::new();
    if p.algorithm.is_some() || o.algorithm.is_some() {
        match (&p.algorithm, &o.algorithm) {
            (Some(pa), Some(oa))
                if pa != oa
                    || p.lock_none != o.lock_none
                    || p.lock_exclusive != o.lock_exclusive =>
            {
                out.push(format!(
                    "algorithm: predicted ALGORITHM={pa}, {}, observed ALGORITHM={oa}, {}",
                    dml(p.lock_none, p.lock_exclusive),
                    dml(o.lock_none, o.lock_exclusive)
                ))
            }
            (None, Some(oa)) => out.push(format!(
                "algorithm: predicted nothing, observed ALGORITHM={oa}, {}",
                dml(o.lock_none, o.lock_exclusive)
            )),
            _ => {}
        }
    } else {
        // A relation this statement created is new: nobody else can hold
        // it, so neither side's lock on it counts.
        // A recording from before verify looked at indexes, views and
        // sequences has nothing to say about them.
        let fresh = |r: &str| {
            o.created.iter().any(|c| c == r)
                || !o.secondary_observed && p.secondary.iter().any(|s| s == r)
                || !o.toast_observed && r.starts_with(&toast_name(""))
                || !o.toast_index_observed && r.starts_with(&toast_index_name(""))
        };
        let mut modes: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
        for l in p.locks.iter().filter(|l| !fresh(&l.relation)) {
            modes.entry(&l.relation).or_insert(("none", "none")).0 = &l.mode;
        }
        for l in o.locks.iter().filter(|l| !fresh(&l.relation)) {
            // The lock table speaks of DDL locks. ACCESS SHARE on a table
            // the prediction does not name is a read by a query inside the
            // statement (a view's or a matview's source), which conflicts
            // with ACCESS EXCLUSIVE alone; it is shown, not judged.
            if l.mode == PgMode::AccessShare.as_str() && !modes.contains_key(l.relation.as_str()) {
                continue;
            }
            modes.entry(&l.relation).or_insert(("none", "none")).1 = &l.mode;
        }
        for (rel, (pm, om)) in modes {
            let maybe = p.maybe.iter().find(|l| l.relation == rel);
            let within = |m: &str| PgMode::parse(om) <= PgMode::parse(m);
            match maybe {
                Some(m) if pm == "none" && within(&m.mode) => {}
                Some(m) if pm == "none" => out.push(format!(
                    "{rel}: predicted at most {} (if rows reach it), observed {om}",
                    m.mode
                )),
                // A watched statement's index and view locks are seen by
                // sampling only (blockers sit on tables): a short one can
                // pass unseen (DROP INDEX CONCURRENTLY's last ACCESS
                // EXCLUSIVE after its SHARE UPDATE EXCLUSIVE), so a weaker
                // mode or none there proves nothing; a stronger one seen
                // than predicted is still judged.
                _ if o.watched
                    && PgMode::parse(om) < PgMode::parse(pm)
                    && p.secondary.iter().any(|s| s == rel) => {}
                _ if pm != om => out.push(format!("{rel}: predicted {pm}, observed {om}")),
                _ => {}
            }
        }
        out.extend(scans(p, o, &fresh));
    }
    if let Some(r) = o.rewrite
        && r != p.rewrite
    {
        out.push(format!(
            "rewrite: predicted {}, observed {}",
            yes_no(p.rewrite),
            yes_no(r)
        ));
    }
    out
}

/// Tables read in full: predicted against counted (`pg_scans`). Not told
/// apart: a new relation, a rewritten one (the rewrite reads it, and is
/// compared as such), a partitioned one (its rows are its partitions').
/// A read under ACCESS SHARE alone is a query inside the statement (a
/// view's source), and a scan of a relation a row statement reaches is
/// its plan's: shown, not judged, unless predicted.
fn scans(p: &Prediction, o: &Observed, fresh: &dyn Fn(&str) -> bool) -> Vec<String> {
    let Some(seen) = &o.scans else {
        return Vec::new();
    };
    let judged = |r: &str| {
        !fresh(r) && !o.rewritten.iter().any(|x| x == r) && !o.partitioned.iter().any(|x| x == r)
    };
    let mut out = Vec::new();
    for r in p.scans.iter().filter(|r| judged(r)) {
        if !seen.contains(r) {
            out.push(format!("{r}: predicted a full scan, observed none"));
        }
    }
    let planned =
        |r: &str| p.maybe_scans.iter().any(|x| x == r) || p.maybe.iter().any(|l| l.relation == r);
    for r in seen
        .iter()
        .filter(|r| judged(r) && !p.scans.contains(r) && !planned(r))
    {
        let held = o
            .locks
            .iter()
            .find(|l| &l.relation == r)
            .map(|l| PgMode::parse(&l.mode))
            .unwrap_or(PgMode::None);
        if held > PgMode::AccessShare {
            out.push(format!(
                "{r}: predicted no full scan, observed one (under {})",
                held.as_str()
            ));
        }
    }
    out
}

/// `ACCESS EXCLUSIVE on orders, SHARE on customers` / `ALGORITHM=INPLACE, LOCK=NONE`.
pub fn predicted_text(p: &Prediction) -> String {
    if p.refused.is_some() {
        return "(refused)".into();
    }
    if let Some(a) = &p.algorithm {
        return format!("ALGORITHM={a}, {}", dml(p.lock_none, p.lock_exclusive));
    }
    locks_text(&p.locks)
}

pub fn observed_text(o: &Observed) -> String {
    if o.withheld.is_some() {
        return "(withheld: acts outside the scratch database)".into();
    }
    if let Some(s) = &o.skipped {
        return format!("(skipped: {s})");
    }
    if o.error.is_some() {
        return "(refused)".into();
    }
    if let Some(a) = &o.algorithm {
        return format!("ALGORITHM={a}, {}", dml(o.lock_none, o.lock_exclusive));
    }
    let fresh: Vec<_> = o
        .locks
        .iter()
        .filter(|l| !o.created.contains(&l.relation))
        .cloned()
        .collect();
    locks_text(&fresh)
}

fn locks_text(locks: &[super::LockObs]) -> String {
    if locks.is_empty() {
        return "-".into();
    }
    locks
        .iter()
        .map(|l| format!("{} on {}", l.mode, l.relation))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::LockObs;
    use super::*;

    fn lock(r: &str, m: &str) -> LockObs {
        LockObs {
            relation: r.into(),
            mode: m.into(),
        }
    }

    #[test]
    fn names_both_sides_of_each_difference() {
        let p = Prediction {
            locks: vec![lock("orders", "SHARE ROW EXCLUSIVE")],
            ..Prediction::default()
        };
        let o = Observed {
            locks: vec![
                lock("orders", "SHARE ROW EXCLUSIVE"),
                lock("customers", "SHARE ROW EXCLUSIVE"),
            ],
            rewrite: Some(true),
            ..Observed::default()
        };
        assert_eq!(
            compare(&p, &o),
            vec![
                "customers: predicted none, observed SHARE ROW EXCLUSIVE".to_string(),
                "rewrite: predicted no, observed yes".to_string()
            ]
        );
    }

    #[test]
    fn new_relations_and_skips_do_not_count() {
        let p = Prediction {
            locks: vec![lock("refunds", "ACCESS EXCLUSIVE")],
            ..Prediction::default()
        };
        let o = Observed {
            locks: vec![lock("refunds", "ACCESS EXCLUSIVE")],
            created: vec!["refunds".into()],
            rewrite: Some(false),
            ..Observed::default()
        };
        assert!(compare(&p, &o).is_empty());
        let skipped = Observed {
            skipped: Some("transaction control".into()),
            ..Observed::default()
        };
        assert!(compare(&Prediction::default(), &skipped).is_empty());
    }

    #[test]
    fn scans_are_judged_where_a_lock_holds_the_table_and_nothing_excuses_them() {
        let p = Prediction {
            locks: vec![lock("t", "ACCESS EXCLUSIVE"), lock("u", "ACCESS EXCLUSIVE")],
            scans: vec!["t".into()],
            ..Prediction::default()
        };
        let seen = |scans: &[&str]| Observed {
            locks: vec![
                lock("t", "ACCESS EXCLUSIVE"),
                lock("u", "ACCESS EXCLUSIVE"),
                lock("src", "ACCESS SHARE"),
            ],
            rewrite: Some(false),
            scans: Some(scans.iter().map(|s| s.to_string()).collect()),
            ..Observed::default()
        };
        assert!(compare(&p, &seen(&["t", "src"])).is_empty());
        assert_eq!(
            compare(&p, &seen(&["u"])),
            vec![
                "t: predicted a full scan, observed none".to_string(),
                "u: predicted no full scan, observed one (under ACCESS EXCLUSIVE)".to_string()
            ]
        );
        // Rewritten, partitioned, or not observed at all: nothing to judge.
        let mut o = seen(&[]);
        o.rewritten = vec!["t".into()];
        assert!(compare(&p, &o).is_empty());
        o.rewritten.clear();
        o.partitioned = vec!["t".into()];
        assert!(compare(&p, &o).is_empty());
        o.partitioned.clear();
        o.scans = None;
        assert!(compare(&p, &o).is_empty());
        // A row statement's scans are its plan's.
        let planned = Prediction {
            maybe_scans: vec!["u".into()],
            ..p.clone()
        };
        assert_eq!(compare(&planned, &seen(&["t", "u"])), Vec::<String>::new());
    }

    #[test]
    fn algorithm_and_dml_level_both_compared() {
        let p = Prediction {
            algorithm: Some("NOCOPY".into()),
            lock_none: Some(true),
            ..Prediction::default()
        };
        let o = Observed {
            algorithm: Some("INPLACE".into()),
            lock_none: Some(false),
            ..Observed::default()
        };
        assert_eq!(
            compare(&p, &o),
            vec![
                "algorithm: predicted ALGORITHM=NOCOPY, LOCK=NONE, observed ALGORITHM=INPLACE, LOCK=SHARED"
                    .to_string()
            ]
        );
    }
}
