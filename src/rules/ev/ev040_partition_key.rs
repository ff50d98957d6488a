//! EV040: required ordering needs a partition key aligned with the
//! consistency boundary, and an estimate of how many keys there are.
use super::common::ordering_required;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Keys that scatter one entity's events over every partition: the handbook
/// (§3.2) says never to partition on random values when order matters.
const SCATTERING: &[&str] = &[
    "random",
    "uuid",
    "uuid4",
    "round-robin",
    "none",
    "null",
    "event_id",
    "message_id",
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if !ordering_required(c) {
            continue;
        }
        if let Some(key) = c.get("/spec/ordering/partition_key").and_then(Node::as_str)
            && SCATTERING.contains(&key.trim().to_ascii_lowercase().as_str())
        {
            sink.push(
                c.report(RuleId::EV040, "/spec/ordering/partition_key")
                    .variant("random")
                    .var("boundary", &c.name)
                    .var("key", key),
            );
        }
        for (pointer, variant) in [
            ("/spec/ordering/partition_key", "key"),
            ("/spec/ordering/key_cardinality", "cardinality"),
        ] {
            if c.get(pointer).is_none() {
                sink.push(
                    c.report(RuleId::EV040, pointer)
                        .variant(variant)
                        .var("boundary", &c.name),
                );
            }
        }
    }
}
