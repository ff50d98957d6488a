//! CL030: a sharded cluster declares key, model, shard count and growth path
//! before the first shard exists.
use super::common::{bool_at, missing, node, str_at, under};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Sharded: `sharding.enabled: true`, a sharding block that does not say
/// `enabled: false`, or sharding middleware (sharding is its whole job)
/// unless explicitly disabled.
pub fn is_sharded(c: &Contract) -> bool {
    match bool_at(c, "/spec/sharding/enabled") {
        Some(enabled) => enabled,
        None => {
            node(c, "/spec/sharding").is_some()
                || str_at(c, "/spec/engine/class") == Some("sharding-middleware")
        }
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under(
        "/spec/sharding",
        &["key", "model", "shard_count", "growth_path"],
    );
    for c in ctx.ws.clusters().filter(|c| is_sharded(c)) {
        for r in missing(c, RuleId::CL030, &required) {
            sink.push(r);
        }
    }
}
