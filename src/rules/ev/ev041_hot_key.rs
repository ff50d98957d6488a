//! EV041: a key with few distinct values concentrates traffic on a few
//! partitions; a mitigation must be declared before launch.
use super::common::text;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// Fewer distinct keys than this many per partition leaves partitions cold
/// and others hot (the same margin CL032 asks of shard keys).
const KEYS_PER_PARTITION: i64 = 10;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.boundaries() {
        let Some(card) = c.get("/spec/ordering/key_cardinality") else {
            continue;
        };
        let partitions = c.get("/spec/broker/partitions").and_then(Node::as_i64);
        let low = match (card.as_str(), card.as_i64(), partitions) {
            (Some("low"), _, _) => Some("low cardinality".to_string()),
            (_, Some(n), Some(p)) if n < p.saturating_mul(KEYS_PER_PARTITION) => Some(format!(
                "only ~{n} distinct keys for {p} partitions (fewer than {KEYS_PER_PARTITION} per partition)"
            )),
            _ => None,
        };
        let Some(low) = low else { continue };
        let mitigation = text(c, "/spec/ordering/hot_key_mitigation");
        if !matches!(mitigation, None | Some("none")) {
            continue;
        }
        sink.push(
            c.report(RuleId::EV041, "/spec/ordering/hot_key_mitigation")
                .var("boundary", &c.name)
                .var(
                    "key",
                    text(c, "/spec/ordering/partition_key").unwrap_or("(undeclared)"),
                )
                .var("cardinality", low)
                .var("mitigation", mitigation.unwrap_or("not declared")),
        );
    }
}
