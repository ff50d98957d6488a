//! CL061: the last successful restore is within the drill cadence.
use super::common::{node, report_overdue};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.clusters() {
        // Without a declared cadence CL060 reports the drill as missing.
        if node(c, "/spec/restore_drill/cadence").is_none() {
            continue;
        }
        if let Some(r) = report_overdue(
            c,
            RuleId::CL061,
            ctx.today(),
            "/spec/restore_drill/last_success",
            "/spec/restore_drill/cadence",
            "90d",
        ) {
            sink.push(r);
        }
    }
}
