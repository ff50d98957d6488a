//! EV025: effects the DB transaction cannot include need intent-then-execute,
//! and a provider that can replay or look up by key — or, failing that, a
//! reconciliation job and an alert on rows stuck in pending.
use super::common::{and_list, consumers, is_cross_system, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let mut kinds: Vec<&str> = consumer
                .effects()
                .filter_map(|e| e.kind().filter(|k| is_cross_system(k)))
                .collect();
            kinds.sort_unstable();
            kinds.dedup();
            if kinds.is_empty() {
                continue;
            }
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV025, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("kinds", and_list(&kinds))
                    .var("value", written(consumer.get(rel)))
            };
            let pattern = "/external_effects/pattern";
            if consumer.text(pattern) != Some("intent-then-execute") {
                sink.push(report(pattern, "pattern"));
            }
            let provider = consumer.text("/external_effects/provider_idempotency");
            if matches!(provider, None | Some("none")) {
                let job = "/external_effects/reconciliation_job";
                if !consumer.is_true(job) {
                    sink.push(report(job, "reconcile"));
                }
                let alert = "/external_effects/stuck_pending_alert";
                if consumer.get(alert).is_none() {
                    sink.push(report(alert, "stuck"));
                }
            }
        }
    }
}
