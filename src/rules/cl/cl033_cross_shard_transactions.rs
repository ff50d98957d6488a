//! CL033: a sharded cluster says how cross-shard work is done, and does not
//! put a distributed coordinator on the middleware's hot path.
use super::cl030_sharding_incomplete::is_sharded;
use super::common::{node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const XSHARD: &str = "/spec/sharding/cross_shard_transactions";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters().filter(|c| is_sharded(c)) {
        if node(c, XSHARD).is_none() {
            sink.push(c.report(RuleId::CL033, XSHARD).variant("undeclared"));
        } else if str_at(c, XSHARD) == Some("two-phase-commit")
            && str_at(c, "/spec/engine/class") == Some("sharding-middleware")
        {
            sink.push(c.report(RuleId::CL033, XSHARD));
        }
    }
}
