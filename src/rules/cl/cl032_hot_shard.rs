//! CL032: the shard key has enough distinct values to spread load.
use super::cl030_sharding_incomplete::is_sharded;
use super::common::{int_at, node, str_at};
use crate::catalog::RuleId;
use crate::contracts::units::thousands;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Below this many keys per shard, one popular key dominates its shard.
const KEYS_PER_SHARD: i64 = 10;
const CARDINALITY: &str = "/spec/sharding/key_cardinality";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters().filter(|c| is_sharded(c)) {
        let key =
            str_at(c, "/spec/sharding/key").map_or("(not declared)".into(), |k| format!("`{k}`"));
        let Some(card) = node(c, CARDINALITY) else {
            continue;
        };
        if card.as_str() == Some("low") {
            sink.push(
                c.report(RuleId::CL032, CARDINALITY)
                    .variant("low")
                    .var("key", &key),
            );
            continue;
        }
        let (Some(distinct), Some(shards)) =
            (card.as_i64(), int_at(c, "/spec/sharding/shard_count"))
        else {
            continue;
        };
        let need = i128::from(shards) * i128::from(KEYS_PER_SHARD);
        if i128::from(distinct) < need {
            sink.push(
                c.report(RuleId::CL032, CARDINALITY)
                    .var("key", &key)
                    .var("distinct", thousands(distinct.into()))
                    .var("shards", thousands(shards.into()))
                    .var("need", thousands(need)),
            );
        }
    }
}
