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

/// `ordering.top_key_share`: a fraction (0.15) or a percentage ("15%").
fn top_share(c: &crate::contracts::Contract) -> Option<f64> {
    let n = c.get("/spec/ordering/top_key_share")?;
    let text = n.scalar_text()?;
    let t = text.trim();
    match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok().map(|v| v / 100.0),
        None => t.parse::<f64>().ok(),
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let partitions = c.get("/spec/broker/partitions").and_then(Node::as_i64);
        let card = c.get("/spec/ordering/key_cardinality");
        let low = match (
            card.and_then(Node::as_str),
            card.and_then(Node::as_i64),
            partitions,
        ) {
            (Some("low"), _, _) => Some("low cardinality".to_string()),
            (_, Some(n), Some(p)) if n < p.saturating_mul(KEYS_PER_PARTITION) => Some(format!(
                "only ~{n} distinct keys for {p} partitions (fewer than {KEYS_PER_PARTITION} per partition)"
            )),
            _ => None,
        };
        // Many keys can still be hot: one tenant's traffic at the head of
        // the distribution. A key carrying more than one partition's fair
        // share (1 / partitions) of the traffic overloads its partition.
        let skew = match (top_share(c), partitions) {
            (Some(share), Some(p)) if p > 0 && share * p as f64 > 1.0 => Some(format!(
                "its hottest key carrying {}% of the traffic on {p} partitions (a partition's fair share is {:.1}%)",
                trim(share * 100.0),
                100.0 / p as f64
            )),
            _ => None,
        };
        let Some(low) = low.or(skew) else { continue };
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
