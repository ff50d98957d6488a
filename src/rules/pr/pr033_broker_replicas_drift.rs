//! PR033: the stream (or RabbitMQ queue, or Kafka topic) keeps another number of replicas
//! than the boundary declares.
use super::{managed_queues, streams, topics};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::emit::{Report, Sink};
use crate::registry::RuleCtx;

const DECLARED: &str = "/spec/broker/replication_factor";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in streams(ctx) {
        if let Some(r) = drift(c, f.replicas) {
            sink.push(r.var("stream", &f.stream).var("target", &p.shown));
        }
    }
    for (c, p, f) in managed_queues(ctx) {
        if let Some(r) = drift(c, f.replicas) {
            sink.push(
                r.variant("queue")
                    .var("kind", &f.kind)
                    .var("queue", &f.queue)
                    .var("target", &p.shown),
            );
        }
    }
    for (c, p, f) in topics(ctx) {
        if let Some(r) = drift(c, f.replication_factor) {
            sink.push(
                r.variant("topic")
                    .var("topic", &f.topic)
                    .var("target", &p.shown),
            );
        }
    }
}

/// The finding when the declared replication factor is not what the server
/// keeps (nothing when the contract declares none).
fn drift(c: &Contract, observed: usize) -> Option<Report> {
    let declared = c.get(DECLARED).and_then(Node::as_i64)?;
    (usize::try_from(declared).ok() != Some(observed)).then(|| {
        c.report(RuleId::PR033, DECLARED)
            .var("declared", declared)
            .var("observed", observed)
    })
}
