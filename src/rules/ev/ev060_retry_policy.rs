//! EV060: bounded retries with backoff and jitter, declared per consumer.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV060, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
            };
            for (rel, variant) in [
                ("/retry/max_attempts", "attempts"),
                ("/retry/base_delay", "base_delay"),
                ("/retry/jitter", "jitter"),
            ] {
                if consumer.get(rel).is_none() {
                    sink.push(report(rel, variant));
                }
            }
            if consumer.text("/retry/jitter") == Some("none") {
                sink.push(report("/retry/jitter", "jitter_none"));
            }
        }
    }
}
