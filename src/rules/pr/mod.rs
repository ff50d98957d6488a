//! The PR family: what `platcheck probe` observed on the running systems,
//! compared with what the contracts declare. The probing itself is the
//! `probe` analysis; these rules only judge its facts, and find nothing in a
//! run that does not probe.
#[cfg(test)]
mod kafka_variant_tests;
mod pr001_probe_failed;
mod pr002_probe_object_missing;
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
mod pr030_stream_dedup_window_drift;
mod pr031_delivery_limit_drift;
mod pr032_ack_policy_drift;
mod pr033_broker_replicas_drift;
mod pr034_topic_partitions_drift;
mod pr035_min_insync_replicas_drift;
mod pr036_topic_retention_drift;
mod pr037_topic_under_replicated;
#[cfg(test)]
mod variant_tests;

use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::probe::{
    ConsumerFacts, DbFacts, Facts, ManagedQueueFacts, Probe, RedisFacts, StreamFacts, TopicFacts,
};
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
        rule(RuleId::PR002, pr002_probe_object_missing::check),
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
        rule(RuleId::PR030, pr030_stream_dedup_window_drift::check),
        rule(RuleId::PR031, pr031_delivery_limit_drift::check),
        rule(RuleId::PR032, pr032_ack_policy_drift::check),
        rule(RuleId::PR033, pr033_broker_replicas_drift::check),
        rule(RuleId::PR034, pr034_topic_partitions_drift::check),
        rule(RuleId::PR035, pr035_min_insync_replicas_drift::check),
        rule(RuleId::PR036, pr036_topic_retention_drift::check),
        rule(RuleId::PR037, pr037_topic_under_replicated::check),
    ]
}

/// Facts a rule judges only when the object they describe is there (a
/// missing stream, topic or queue is PR002's finding alone).
trait Present {
    fn present(&self) -> bool;
}

impl Present for DbFacts {
    fn present(&self) -> bool {
        true
    }
}

impl Present for StreamFacts {
    fn present(&self) -> bool {
        self.exists
    }
}

impl Present for TopicFacts {
    fn present(&self) -> bool {
        self.exists
    }
}

impl Present for ManagedQueueFacts {
    fn present(&self) -> bool {
        self.exists
    }
}

/// Every contract whose probe gave present facts of one kind (`pick` is
/// `Facts::db`, `Facts::topic`, …), in contract order.
fn probed<'a, T: Present + 'a>(
    ctx: &RuleCtx<'a>,
    pick: fn(&Facts) -> Option<&T>,
) -> Vec<(&'a Contract, &'a Probe, &'a T)> {
    let Some(obs) = ctx.probe() else {
        return Vec::new();
    };
    (0..ctx.ws.contracts.len())
        .filter_map(|i| obs.find(i, pick).map(|(p, f)| (&ctx.ws.contracts[i], p, f)))
        .filter(|(_, _, f)| f.present())
        .collect()
}

/// Every Cluster whose database was probed successfully.
fn databases<'a>(ctx: &RuleCtx<'a>) -> Vec<(&'a Contract, &'a Probe, &'a DbFacts)> {
    probed(ctx, Facts::db)
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

/// Every EventBoundary whose stream was probed and exists.
fn streams<'a>(ctx: &RuleCtx<'a>) -> Vec<(&'a Contract, &'a Probe, &'a StreamFacts)> {
    probed(ctx, Facts::stream)
}

/// Every EventBoundary whose Kafka topic was probed and exists.
fn topics<'a>(ctx: &RuleCtx<'a>) -> Vec<(&'a Contract, &'a Probe, &'a TopicFacts)> {
    probed(ctx, Facts::topic)
}

/// Why a topic's configs are not known, for an `unreported` message.
fn unreported_why(f: &TopicFacts) -> String {
    f.configs_error
        .clone()
        .unwrap_or_else(|| "the DescribeConfigs answer has no such entry".into())
}

/// Every EventBoundary whose RabbitMQ queue was read through the management
/// API and exists.
fn managed_queues<'a>(ctx: &RuleCtx<'a>) -> Vec<(&'a Contract, &'a Probe, &'a ManagedQueueFacts)> {
    probed(ctx, Facts::managed_queue)
}

/// Every consumer group with its durable consumer on a probed stream:
/// (contract, probe, stream, consumer index, consumer node, consumer facts).
type GroupOnStream<'a> = (
    &'a Contract,
    &'a Probe,
    &'a StreamFacts,
    usize,
    &'a Node,
    &'a ConsumerFacts,
);

fn stream_consumers<'a>(ctx: &RuleCtx<'a>) -> Vec<GroupOnStream<'a>> {
    let mut out = Vec::new();
    for (c, p, f) in streams(ctx) {
        let Some(consumers) = c.get("/spec/consumers") else {
            continue;
        };
        for (n, consumer) in consumers.as_seq().iter().enumerate() {
            let name = consumer.get("group").and_then(Node::as_str);
            if let Some(cf) = f
                .consumers
                .iter()
                .find(|cf| Some(cf.name.as_str()) == name && cf.exists)
            {
                out.push((c, p, f, n, consumer, cf));
            }
        }
    }
    out
}

/// Milliseconds as a contract would write them (`2m`, `90s`, `250ms`).
fn duration_text(ms: i64) -> String {
    match ms {
        0 => "0s".into(),
        ms if ms % 3_600_000 == 0 => format!("{}h", ms / 3_600_000),
        ms if ms % 60_000 == 0 => format!("{}m", ms / 60_000),
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms => format!("{ms}ms"),
    }
}

/// A consumer's `group` for messages (its index when it has none).
fn group(consumer: &Node, n: usize) -> String {
    consumer
        .get("group")
        .and_then(Node::as_str)
        .map_or_else(|| format!("#{}", n + 1), str::to_string)
}
