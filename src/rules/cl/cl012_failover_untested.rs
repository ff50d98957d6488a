//! CL012: failover has been tested, recently enough for its cadence.
use super::common::{duration_at, node, report_overdue, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::policy;

const LAST: &str = "/spec/ha/failover_test/last";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // Without an `ha` block CL010 speaks; with `failover: none` there is
        // no failover to test (recovery is the restore, CL061/CL062).
        if node(c, "/spec/ha").is_none() || str_at(c, "/spec/ha/failover") == Some("none") {
            continue;
        }
        if node(c, LAST).is_none() {
            sink.push(c.report(RuleId::CL012, LAST).variant("never"));
            continue;
        }
        // A declared cadence is a promise; one longer than the policy's
        // maximum (a `3y` failover test) passes the overdue check for years.
        let max = policy::max_cadence(ctx, "failover_test", policy::FAILOVER_TEST_MAX);
        if let Some(cadence) = duration_at(c, "/spec/ha/failover_test/cadence")
            && policy::exceeds(&cadence, &max)
        {
            sink.push(
                c.report(RuleId::CL012, "/spec/ha/failover_test/cadence")
                    .variant("sparse")
                    .var("cadence", cadence)
                    .var("max", max),
            );
        }
        if let Some(r) = report_overdue(
            c,
            RuleId::CL012,
            ctx.today(),
            LAST,
            "/spec/ha/failover_test/cadence",
            "180d",
        ) {
            sink.push(r);
        }
    }
}
