//! EV040: required ordering needs a partition key aligned with the
//! consistency boundary, and an estimate of how many keys there are.
use super::common::ordering_required;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.boundaries() {
        if !ordering_required(c) {
            continue;
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
