//! EV072: a dead letter must say where it came from and why it died
//! (handbook §5.6), or it cannot be traced or replayed. "Where it came from"
//! is the source position in the broker's own terms: a Kafka offset, a
//! JetStream sequence, a RabbitMQ queue and message id.
use super::common::{and_list, broker_kind, consumers, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// The fields that locate a message in its source, per broker kind.
fn position(kind: Option<&str>) -> &'static [&'static str] {
    match kind {
        Some("kafka" | "pulsar") => &["original_topic", "original_partition", "original_offset"],
        Some("nats-jetstream") => &["original_stream", "original_sequence"],
        Some("redis-streams") => &["original_stream", "original_entry_id"],
        Some("rabbitmq" | "sqs") => &["original_queue", "original_message_id"],
        Some("db-polling") => &["original_table", "original_row_id"],
        _ => &["original_topic", "original_message_id"],
    }
}

const WHY: [&str; 2] = ["error", "retry_count"];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let kind = broker_kind(c);
        for consumer in consumers(c) {
            if consumer.get("/dlq/destination").is_none() {
                continue;
            }
            let have = strings(consumer.get("/dlq/provenance"));
            let missing: Vec<&str> = position(kind)
                .iter()
                .chain(WHY.iter())
                .copied()
                .filter(|p| !have.contains(p))
                .collect();
            if !missing.is_empty() {
                sink.push(
                    c.report(RuleId::EV072, &consumer.ptr("/dlq/provenance"))
                        .var("group", consumer.group())
                        .var("broker", kind.unwrap_or("other"))
                        .var("missing", and_list(&missing)),
                );
            }
        }
    }
}
