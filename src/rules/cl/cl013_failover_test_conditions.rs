//! CL013: the failover test ran in production-like conditions.
use super::common::{node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const CONDITIONS: &str = "/spec/ha/failover_test/conditions";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        // A test that never happened is CL012's finding, not this one.
        if node(c, "/spec/ha/failover_test/last").is_none() {
            continue;
        }
        match str_at(c, CONDITIONS) {
            Some("production-like") => {}
            Some(other) => sink.push(c.report(RuleId::CL013, CONDITIONS).var("conditions", other)),
            None if node(c, CONDITIONS).is_none() => {
                sink.push(c.report(RuleId::CL013, CONDITIONS).variant("undeclared"));
            }
            None => {}
        }
    }
}
