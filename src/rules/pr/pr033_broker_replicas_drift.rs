//! PR033: the stream (or RabbitMQ queue, or Kafka topic) keeps another number of replicas
//! than the boundary declares.
use super::{managed_queues, streams, topics};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in streams(ctx) {
        if let Some(declared) = c
            .get("/spec/broker/replication_factor")
            .and_then(Node::as_i64)
            && usize::try_from(declared).ok() != Some(f.replicas)
        {
            sink.push(
                c.report(RuleId::PR033, "/spec/broker/replication_factor")
                    .var("declared", declared)
                    .var("stream", &f.stream)
                    .var("target", &p.shown)
                    .var("observed", f.replicas),
            );
        }
    }
    for (c, p, f) in managed_queues(ctx) {
        if let Some(declared) = c
            .get("/spec/broker/replication_factor")
            .and_then(Node::as_i64)
            && usize::try_from(declared).ok() != Some(f.replicas)
        {
            sink.push(
                c.report(RuleId::PR033, "/spec/broker/replication_factor")
                    .variant("queue")
                    .var("declared", declared)
                    .var("kind", &f.kind)
                    .var("queue", &f.queue)
                    .var("target", &p.shown)
                    .var("observed", f.replicas),
            );
        }
    }
    for (c, p, f) in topics(ctx) {
        if let Some(declared) = c
            .get("/spec/broker/replication_factor")
            .and_then(Node::as_i64)
            && usize::try_from(declared).ok() != Some(f.replication_factor)
        {
            sink.push(
                c.report(RuleId::PR033, "/spec/broker/replication_factor")
                    .variant("topic")
                    .var("declared", declared)
                    .var("topic", &f.topic)
                    .var("target", &p.shown)
                    .var("observed", f.replication_factor),
            );
        }
    }
}
