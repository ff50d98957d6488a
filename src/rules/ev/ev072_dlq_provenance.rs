//! EV072: a dead letter must say where it came from and why it died
//! (handbook §5.6), or it cannot be traced or replayed.
use super::common::{and_list, consumers, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const PROVENANCE: [&str; 5] = [
    "original_topic",
    "original_partition",
    "original_offset",
    "error",
    "retry_count",
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.boundaries() {
        for consumer in consumers(c) {
            if consumer.get("/dlq/destination").is_none() {
                continue;
            }
            let have = strings(consumer.get("/dlq/provenance"));
            let missing: Vec<&str> = PROVENANCE
                .iter()
                .copied()
                .filter(|p| !have.contains(p))
                .collect();
            if !missing.is_empty() {
                sink.push(
                    c.report(RuleId::EV072, &consumer.ptr("/dlq/provenance"))
                        .var("group", consumer.group())
                        .var("missing", and_list(&missing)),
                );
            }
        }
    }
}
