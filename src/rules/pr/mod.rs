//! The PR family: what `platcheck probe` observed on the running systems,
//! compared with what the contracts declare. The probing itself is the
//! `probe` analysis; these rules only judge its facts, and find nothing in a
//! run that does not probe.
mod pr001_probe_failed;
mod pr002_probe_table_missing;
mod pr010_engine_version_drift;
mod pr011_replication_drift;
mod pr012_read_replica_drift;
mod pr013_archive_drift;
mod pr014_connection_ceiling_drift;
mod pr015_session_timeout_unbounded;
mod pr016_table_size_drift;
mod pr017_binlog_drift;
mod pr020_dedup_eviction_drift;
mod pr021_dedup_persistence_drift;

use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::probe::{DbFacts, Probe, RedisFacts};
use crate::registry::{Check, Entry, RuleCtx};

/// Is `id` one of this family's (the rules `platcheck probe` runs)?
pub fn covers(id: RuleId) -> bool {
    entries().iter().any(|e| e.id == id)
}

pub fn entries() -> Vec<Entry> {
    let rule = |id, check| Entry {
        id,
        check: Check::Workspace(check),
    };
    vec![
        rule(RuleId::PR001, pr001_probe_failed::check),
        rule(RuleId::PR002, pr002_probe_table_missing::check),
        rule(RuleId::PR010, pr010_engine_version_drift::check),
        rule(RuleId::PR011, pr011_replication_drift::check),
        rule(RuleId::PR012, pr012_read_replica_drift::check),
        rule(RuleId::PR013, pr013_archive_drift::check),
        rule(RuleId::PR014, pr014_connection_ceiling_drift::check),
        rule(RuleId::PR015, pr015_session_timeout_unbounded::check),
        rule(RuleId::PR016, pr016_table_size_drift::check),
        rule(RuleId::PR017, pr017_binlog_drift::check),
        rule(RuleId::PR020, pr020_dedup_eviction_drift::check),
        rule(RuleId::PR021, pr021_dedup_persistence_drift::check),
    ]
}

/// Every Cluster whose database was probed successfully.
fn databases<'a>(ctx: &RuleCtx<'a>) -> Vec<(&'a Contract, &'a Probe, &'a DbFacts)> {
    let Some(obs) = ctx.probe() else {
        return Vec::new();
    };
    (0..ctx.ws.contracts.len())
        .filter_map(|i| obs.db(i).map(|(p, f)| (&ctx.ws.contracts[i], p, f)))
        .collect()
}

/// Every consumer whose dedup store is Redis, of an EventBoundary whose
/// dedup tier was probed: (contract, probe, facts, consumer index, consumer).
fn redis_consumers<'a>(
    ctx: &RuleCtx<'a>,
) -> Vec<(&'a Contract, &'a Probe, &'a RedisFacts, usize, &'a Node)> {
    let Some(obs) = ctx.probe() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, c) in ctx.ws.contracts.iter().enumerate() {
        let Some((p, f)) = obs.redis(i) else { continue };
        let Some(consumers) = c.get("/spec/consumers") else {
            continue;
        };
        for (n, consumer) in consumers.as_seq().iter().enumerate() {
            let store = consumer
                .pointer("/idempotency/store")
                .and_then(Node::as_str)
                .unwrap_or("");
            if store.contains("redis") {
                out.push((c, p, f, n, consumer));
            }
        }
    }
    out
}

/// A consumer's `group` for messages (its index when it has none).
fn group(consumer: &Node, n: usize) -> String {
    consumer
        .get("group")
        .and_then(Node::as_str)
        .map_or_else(|| format!("#{}", n + 1), str::to_string)
}
