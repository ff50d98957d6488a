//! PR037: a partition of the Kafka topic is not whole now (ISR smaller than
//! its replicas, an offline replica, no leader): the declared durability is
//! not what the topic has while it lasts.
use super::topics;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::probe::{PartitionHealth, TopicFacts};
use crate::registry::RuleCtx;

/// Partitions named in the message; the rest are counted.
const NAMED: usize = 3;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in topics(ctx) {
        if f.degraded.is_empty() {
            continue;
        }
        // On the durability claim when the contract makes one, else on the topic.
        let at = [
            "/spec/broker/replication_factor",
            "/spec/probe/topic",
            "/spec/broker/topic",
        ]
        .into_iter()
        .find(|at| c.get(at).is_some())
        .unwrap_or("/spec/broker");
        sink.push(
            c.report(RuleId::PR037, at)
                .var("topic", &f.topic)
                .var("target", &p.shown)
                .var("count", f.degraded.len())
                .var("partitions", f.partitions)
                .var("detail", detail(f)),
        );
    }
}

/// `partition 0: 1 of 3 replicas in sync, below min.insync.replicas 2 (acks=all writes are refused); …`
fn detail(f: &TopicFacts) -> String {
    let mut parts: Vec<String> = f
        .degraded
        .iter()
        .take(NAMED)
        .map(|h| one(h, f.min_insync_replicas))
        .collect();
    if f.degraded.len() > NAMED {
        parts.push(format!("and {} more", f.degraded.len() - NAMED));
    }
    parts.join("; ")
}

fn one(h: &PartitionHealth, min_isr: Option<i64>) -> String {
    let mut s = format!(
        "partition {}: {} of {} {} in sync",
        h.partition,
        h.in_sync,
        h.replicas,
        if h.replicas == 1 {
            "replica"
        } else {
            "replicas"
        }
    );
    if h.offline > 0 {
        s += &format!(", {} offline", h.offline);
    }
    if !h.has_leader {
        s += ", no leader (nobody can write or read it)";
    } else if let Some(min) = min_isr
        && i64::try_from(h.in_sync).is_ok_and(|n| n < min)
    {
        s += &format!(", below min.insync.replicas {min} (acks=all writes are refused)");
    }
    s
}
