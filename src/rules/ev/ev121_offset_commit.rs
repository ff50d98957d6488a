//! EV121: committing offsets before the work is done (or on a timer) turns
//! a redelivering boundary into an at-most-once one.
use super::common::{consumers, delivery, redelivers};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if !redelivers(c) {
            continue;
        }
        let semantics = delivery(c).unwrap_or("at-least-once (the default)");
        for consumer in consumers(c) {
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV121, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("delivery", semantics)
            };
            if consumer.is_true("/offsets/auto_commit") {
                sink.push(report("/offsets/auto_commit", "auto"));
            }
            if consumer.text("/offsets/commit") == Some("before-processing") {
                sink.push(report("/offsets/commit", "before"));
            }
        }
    }
}
