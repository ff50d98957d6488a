//! CL030: a sharded cluster declares key, model, shard count and growth path
//! before the first shard exists.
use super::common::{missing, under};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Whether the rules CL030-CL033 apply (see `Contract::is_sharded`).
pub fn is_sharded(c: &Contract) -> bool {
    c.is_sharded()
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under(
        "/spec/sharding",
        &["key", "model", "shard_count", "growth_path"],
    );
    for c in ctx.ws.judged_clusters().filter(|c| is_sharded(c)) {
        for r in missing(c, RuleId::CL030, &required) {
            sink.push(r);
        }
    }
}
