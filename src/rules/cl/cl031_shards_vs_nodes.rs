//! CL031: more shards than nodes, so growth moves shards instead of re-keying.
use super::cl030_sharding_incomplete::is_sharded;
use super::common::int_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters().filter(|c| is_sharded(c)) {
        let (Some(shards), Some(nodes)) = (
            int_at(c, "/spec/sharding/shard_count"),
            int_at(c, "/spec/sharding/node_count"),
        ) else {
            continue;
        };
        // Equal counts leave one shard per node: the next node has nothing
        // to take over without a re-shard, which is what the rule prevents.
        if shards <= nodes {
            sink.push(
                c.report(RuleId::CL031, "/spec/sharding/shard_count")
                    .var("shards", shards)
                    .var("nodes", nodes),
            );
        }
    }
}
