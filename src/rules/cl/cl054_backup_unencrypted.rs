//! CL054: backups are encrypted at rest.
use super::common::bool_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // Absent is CL050's "incomplete"; this rule flags an explicit `false`.
        if bool_at(c, "/spec/backup/encrypted") == Some(false) {
            sink.push(c.report(RuleId::CL054, "/spec/backup/encrypted"));
        }
    }
}
