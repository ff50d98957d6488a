//! EV120: a Kafka producer is durable only with acks=all, idempotence, and
//! min.insync.replicas >= 2 on a replication factor of 3 or more.
use super::common::{broker_kind, written};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.boundaries() {
        if broker_kind(c) != Some("kafka") {
            continue;
        }
        let report = |pointer: &str, variant: &'static str| {
            c.report(RuleId::EV120, pointer)
                .variant(variant)
                .var("boundary", &c.name)
                .var("value", written(c.get(pointer)))
        };
        if c.get("/spec/producer/acks").and_then(Node::as_str) != Some("all") {
            sink.push(report("/spec/producer/acks", "acks"));
        }
        if c.get("/spec/producer/idempotent").and_then(Node::as_bool) != Some(true) {
            sink.push(report("/spec/producer/idempotent", "idempotent"));
        }
        let rf = c
            .get("/spec/broker/replication_factor")
            .and_then(Node::as_i64);
        let isr = c
            .get("/spec/broker/min_insync_replicas")
            .and_then(Node::as_i64);
        if let Some(rf) = rf.filter(|rf| *rf >= 3)
            && isr.is_none_or(|n| n < 2)
        {
            sink.push(report("/spec/broker/min_insync_replicas", "isr").var("rf", rf));
        }
    }
}
