//! CL052: a backup RPO shorter than the snapshot interval needs a continuous
//! archive; snapshots alone lose everything since the last one.
use super::common::{compare_at, strings};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

const CONTINUOUS: [&str; 2] = ["wal-archive", "binlog-archive"];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let types = strings(c, "/spec/backup/types");
        if types.iter().any(|t| CONTINUOUS.contains(t)) {
            continue;
        }
        if let Some((rpo, frequency, Ordering::Less)) =
            compare_at(c, sink, "/spec/backup/rpo", "/spec/backup/frequency")
        {
            sink.push(
                c.report(RuleId::CL052, "/spec/backup/rpo")
                    .var("rpo", rpo)
                    .var("frequency", frequency)
                    .var("types", format!("[{}]", types.join(", "))),
            );
        }
    }
}
