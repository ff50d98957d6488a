//! CL061: the last successful restore is within the drill cadence.
use super::common::{duration_at, node, report_overdue};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::policy;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // Without a declared cadence CL060 reports the drill as missing.
        if node(c, "/spec/restore_drill/cadence").is_none() {
            continue;
        }
        // A declared cadence is a promise; one longer than the policy's
        // maximum (a `3y` failover test) passes the overdue check for years.
        let max = policy::max_cadence(ctx, "restore_drill", policy::RESTORE_DRILL_MAX);
        if let Some(cadence) = duration_at(c, "/spec/restore_drill/cadence")
            && policy::exceeds(&cadence, &max)
        {
            sink.push(
                c.report(RuleId::CL061, "/spec/restore_drill/cadence")
                    .variant("sparse")
                    .var("cadence", cadence)
                    .var("max", max),
            );
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
