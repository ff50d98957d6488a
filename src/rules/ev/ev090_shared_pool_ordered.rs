//! EV090: an ordered partitioned log needs one serial lane per partition; a
//! shared pool lets later offsets overtake earlier ones.
use super::common::{broker_kind, consumers, ordering_required, partitioned_log};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let kind = broker_kind(c);
        if !ordering_required(c) || !partitioned_log(kind) {
            continue;
        }
        for consumer in consumers(c) {
            if consumer.text("/concurrency") == Some("shared-pool") {
                sink.push(
                    c.report(RuleId::EV090, &consumer.ptr("/concurrency"))
                        .var("group", consumer.group())
                        .var("broker", kind.unwrap_or_default()),
                );
            }
        }
    }
}
