//! CL110: the cluster's cost is reviewed on its cadence (monthly by default).
use super::common::{node, report_overdue};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const LAST: &str = "/spec/cost/last_review";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, LAST).is_none() {
            sink.push(c.report(RuleId::CL110, LAST).variant("never"));
            continue;
        }
        if let Some(r) = report_overdue(
            c,
            RuleId::CL110,
            ctx.today(),
            LAST,
            "/spec/cost/review_cadence",
            "30d",
        ) {
            sink.push(r);
        }
    }
}
