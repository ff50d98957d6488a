//! EV130: a projection consumer is idempotent by a processed-event table or
//! by a version-guarded update — and the latter needs the version and the
//! aggregate's events kept in order (R-CQRS-SYNC-2).
use super::common::{consumers, ordering_required, text, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            if consumer.get("/read_model").is_none() {
                continue;
            }
            let report = |rel: &str, variant: &'static str| {
                c.report(RuleId::EV130, &consumer.ptr(rel))
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("projection", consumer.projection())
                    .var("value", written(consumer.get(rel)))
            };
            match consumer.text("/read_model/dedup") {
                None => sink.push(report("/read_model/dedup", "dedup")),
                Some("version-guarded-update") => {
                    if consumer.get("/read_model/version_field").is_none() {
                        sink.push(report("/read_model/version_field", "version_field"));
                    }
                    if !ordering_required(c) || text(c, "/spec/ordering/partition_key").is_none() {
                        sink.push(report("/read_model/dedup", "ordering"));
                    }
                }
                Some(_) => {}
            }
        }
    }
}
