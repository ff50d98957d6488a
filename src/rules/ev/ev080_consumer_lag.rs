//! EV080: consumer lag is exposed, has an SLO and an alert, and is visible
//! per partition where partitions are ordered.
use super::common::{broker_kind, consumers, ordering_required, partitioned_log, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let ordered_partitions = ordering_required(c) && partitioned_log(broker_kind(c));
        for consumer in consumers(c) {
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV080, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("value", written(consumer.get(rel)))
            };
            for (rel, variant) in [
                ("/lag/metric", "metric"),
                ("/lag/slo", "slo"),
                ("/lag/alert", "alert"),
            ] {
                if consumer.get(rel).is_none() {
                    sink.push(report(rel, variant));
                }
            }
            if ordered_partitions && !consumer.is_true("/lag/per_partition") {
                sink.push(report("/lag/per_partition", "per_partition"));
            }
        }
    }
}
