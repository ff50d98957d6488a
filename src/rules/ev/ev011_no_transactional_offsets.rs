//! EV011: clause 3 through broker transactions needs a broker that commits
//! offsets transactionally.
use super::common::{broker_kind, delivery, text};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Whether the broker commits offsets transactionally when the contract
/// does not say: Kafka and Pulsar do; per-ack and queue brokers do not;
/// for `db-polling` and `other` we do not guess.
fn default_transactional(kind: &str) -> Option<bool> {
    match kind {
        "kafka" | "pulsar" => Some(true),
        "nats-jetstream" | "rabbitmq" | "redis-streams" | "sqs" => Some(false),
        _ => None,
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if delivery(c) != Some("exactly-once")
            || text(c, "/spec/exactly_once/atomic_commit") != Some("broker-transactions")
        {
            continue;
        }
        let kind = broker_kind(c).unwrap_or("the broker");
        let declared = c
            .get("/spec/broker/transactional_offsets")
            .and_then(Node::as_bool);
        let how = match declared {
            Some(false) => " (transactional_offsets: false)",
            Some(true) => continue,
            None if default_transactional(kind) == Some(false) => {
                " (not declared, and this broker acks per message)"
            }
            None => continue,
        };
        sink.push(
            c.report(RuleId::EV011, "/spec/exactly_once/atomic_commit")
                .var("boundary", &c.name)
                .var("broker", kind)
                .var("how", how),
        );
    }
}
