//! CL016: automatic failover fences the demoted primary.
use super::common::{bool_at, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // Consensus engines fence by construction: a leader without a
        // majority lease cannot commit, so there is no second writer to fence.
        if str_at(c, "/spec/ha/failover") != Some("automatic")
            || str_at(c, "/spec/ha/topology") == Some("consensus")
        {
            continue;
        }
        if bool_at(c, "/spec/ha/fencing") != Some(true) {
            let fencing =
                bool_at(c, "/spec/ha/fencing").map_or("not declared".into(), |b| b.to_string());
            sink.push(
                c.report(RuleId::CL016, "/spec/ha/fencing")
                    .var("fencing", fencing),
            );
        }
    }
}
