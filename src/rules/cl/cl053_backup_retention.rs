//! CL053: backups are kept at least as long as the deletion clock runs.
use super::common::compare_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if let Some((retention, sla, Ordering::Less)) = compare_at(
            c,
            sink,
            "/spec/backup/retention",
            "/spec/data_retention/deletion_sla",
        ) {
            sink.push(
                c.report(RuleId::CL053, "/spec/backup/retention")
                    .var("retention", retention)
                    .var("sla", sla),
            );
        }
    }
}
