//! EV092: a partition-assigned consumer must stop, drain, commit only what
//! completed and be fenced when a partition is revoked — one finding per
//! missing piece.
use super::common::{broker_kind, consumers, partition_assigned, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let kind = broker_kind(c);
        if !partition_assigned(kind) {
            continue;
        }
        for consumer in consumers(c) {
            let missing = [
                (
                    "/rebalance/stop_fetch",
                    "stop_fetch",
                    consumer.is_true("/rebalance/stop_fetch"),
                ),
                (
                    "/rebalance/drain_deadline",
                    "drain",
                    consumer.get("/rebalance/drain_deadline").is_some(),
                ),
                (
                    "/rebalance/commit",
                    "commit",
                    consumer.text("/rebalance/commit") == Some("completed-only"),
                ),
                (
                    "/rebalance/epoch_fencing",
                    "fencing",
                    consumer.is_true("/rebalance/epoch_fencing"),
                ),
            ];
            for (rel, variant, _) in missing.iter().filter(|(_, _, ok)| !ok) {
                sink.push(
                    c.report(RuleId::EV092, &consumer.ptr(rel))
                        .variant(variant)
                        .var("group", consumer.group())
                        .var("broker", kind.unwrap_or_default())
                        .var("value", written(consumer.get(rel))),
                );
            }
        }
    }
}
