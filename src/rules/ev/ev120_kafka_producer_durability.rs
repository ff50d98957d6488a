//! EV120: a Kafka producer is durable only with acks=all, idempotence, and
//! min.insync.replicas 2 on a replication factor of 3 (handbook §3.2), and
//! keeps a key's order only with at most 5 requests in flight (1 without
//! idempotence).
use super::common::{broker_kind, ordering_required, written};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
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
        let idempotent = c.get("/spec/producer/idempotent").and_then(Node::as_bool) == Some(true);
        if !idempotent {
            sink.push(report("/spec/producer/idempotent", "idempotent"));
        }
        let in_flight = c.get("/spec/producer/max_in_flight").and_then(Node::as_i64);
        let safe = if idempotent { 5 } else { 1 };
        if let Some(n) = in_flight
            && n > safe
            && (idempotent || ordering_required(c))
        {
            sink.push(report("/spec/producer/max_in_flight", "in_flight").var("safe", safe));
        }
        let rf = c
            .get("/spec/broker/replication_factor")
            .and_then(Node::as_i64);
        let isr = c
            .get("/spec/broker/min_insync_replicas")
            .and_then(Node::as_i64);
        match rf {
            // A stock broker's default.replication.factor is 1.
            None => sink.push(report("/spec/broker/replication_factor", "rf_missing")),
            Some(rf) if rf < 3 => {
                sink.push(report("/spec/broker/replication_factor", "rf").var("rf", rf));
            }
            Some(rf) => match isr {
                Some(n) if n >= 2 && n < rf => {}
                Some(n) if n >= rf => {
                    sink.push(report("/spec/broker/min_insync_replicas", "isr_all").var("rf", rf))
                }
                _ => sink.push(report("/spec/broker/min_insync_replicas", "isr").var("rf", rf)),
            },
        }
    }
}
