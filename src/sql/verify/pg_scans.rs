//! Which tables a PostgreSQL statement read in full, from the server's own
//! counters: a sequential scan (a rewrite, an index build, a constraint
//! check, a query without a usable index) bumps `seq_scan`; VACUUM and
//! ANALYZE bump their run counts. Nothing is sampled.
//!
//! In a transaction the session's own pending counts are read
//! (`pg_stat_get_xact_numscans`): they belong to this backend alone, and a
//! forced flush just before BEGIN empties them, so no flush can land
//! between the two readings. A statement that commits on its own (watched)
//! runs on a worker session whose counts are flushed to the shared
//! statistics (`pg_stat_force_next_flush`, PostgreSQL 15) before and after
//! it; the other sessions of the replay take no scan meanwhile (blockers
//! only lock, the sampler reads catalogs).
use super::VerifyError;
use super::pg::err;
use super::pg_observe::{Snapshot, is_table};
use crate::sql::Version;
use postgres::Client;
use std::collections::HashMap;

/// Per table oid: full reads counted so far.
pub type Counts = HashMap<u32, i64>;

/// `pg_stat_force_next_flush` and shared-memory statistics are 15's.
pub fn observable(v: Version) -> bool {
    v >= Version(15, 0, 0)
}

/// Flushes this session's pending counts to the shared statistics now
/// (the flush happens before the server answers).
pub fn flush(c: &mut Client) -> Result<(), VerifyError> {
    c.batch_execute("SELECT pg_stat_force_next_flush()")
        .map_err(err)
}

/// The counts of every table: the session's pending ones (`pending`, in a
/// transaction) or the shared ones, plus the VACUUM and ANALYZE runs (shared,
/// written as they finish). `None`: `track_counts` is off, nothing counts.
pub fn counts(c: &mut Client, pending: bool) -> Result<Option<Counts>, VerifyError> {
    let scans = if pending {
        "pg_stat_get_xact_numscans(c.oid)"
    } else {
        "pg_stat_get_numscans(c.oid)"
    };
    // A cached snapshot of the shared statistics would hide a run that
    // finished after it was taken.
    c.batch_execute("SELECT pg_stat_clear_snapshot()")
        .map_err(err)?;
    let on: bool = c
        .query_one("SELECT current_setting('track_counts')::bool", &[])
        .map_err(err)?
        .get(0);
    if !on {
        return Ok(None);
    }
    let rows = c
        .query(
            &format!(
                "SELECT c.oid, {scans} + pg_stat_get_vacuum_count(c.oid) \
                 + pg_stat_get_analyze_count(c.oid) \
                 FROM pg_class c WHERE c.relkind IN ('r', 'm') AND c.relnamespace NOT IN \
                 (SELECT oid FROM pg_namespace WHERE nspname IN ('pg_catalog', 'information_schema') \
                  OR nspname LIKE 'pg\\_toast%' OR nspname LIKE 'pg\\_temp%')"
            ),
            &[],
        )
        .map_err(err)?;
    Ok(Some(rows.iter().map(|r| (r.get(0), r.get(1))).collect()))
}

/// The tables that existed before and were read in full between the two
/// readings, by name, sorted.
pub fn scanned(before: &Counts, after: &Counts, rels: &Snapshot) -> Vec<String> {
    let mut out: Vec<String> = after
        .iter()
        .filter(|(oid, n)| before.get(oid).is_some_and(|b| *n > b))
        .filter_map(|(oid, _)| rels.get(oid).filter(|r| is_table(&r.kind)))
        .map(|r| r.name.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}
