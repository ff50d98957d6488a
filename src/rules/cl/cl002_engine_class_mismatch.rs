//! CL002: the engine class fits the product, and the next tier is above it.
use super::common::str_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// The products that can honestly sit in each class. `other` fits anywhere;
/// cloud-managed fits every product because most engines have a managed
/// offering (RDS, TiDB Cloud, PlanetScale…), so it is never a mismatch.
fn fits(class: &str) -> Option<&'static [&'static str]> {
    Some(match class {
        "single-instance-oltp" => &["postgresql", "mysql", "mariadb", "other"],
        "sharding-middleware" => &["vitess", "mysql", "mariadb", "postgresql", "other"],
        "distributed-sql" => &["tidb", "cockroachdb", "yugabytedb", "spanner", "other"],
        _ => return None,
    })
}

/// The class a product belongs to, for the message.
fn natural_class(product: &str) -> &'static str {
    match product {
        "postgresql" | "mysql" | "mariadb" => "single-instance-oltp",
        "vitess" => "sharding-middleware",
        "tidb" | "cockroachdb" | "yugabytedb" | "spanner" => "distributed-sql",
        _ => "cloud-managed",
    }
}

/// Position on the scale axis; cloud-managed is about who operates the
/// engine, not how it scales, so it has no rank.
fn rank(class: &str) -> Option<u8> {
    match class {
        "single-instance-oltp" => Some(1),
        "sharding-middleware" => Some(2),
        "distributed-sql" => Some(3),
        _ => None,
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(class) = str_at(c, "/spec/engine/class") else {
            continue;
        };
        if let (Some(product), Some(allowed)) = (str_at(c, "/spec/engine/product"), fits(class))
            && !allowed.contains(&product)
        {
            sink.push(
                c.report(RuleId::CL002, "/spec/engine/product")
                    .var("class", class)
                    .var("product", product)
                    .var("natural", natural_class(product))
                    .var("allowed", allowed.join(", ")),
            );
        }
        let Some(target) = str_at(c, "/spec/engine/next_tier/target") else {
            continue;
        };
        let lower = match (rank(class), rank(target)) {
            (Some(a), Some(b)) => b <= a,
            _ => target == class,
        };
        if lower {
            sink.push(
                c.report(RuleId::CL002, "/spec/engine/next_tier/target")
                    .variant("next_tier")
                    .var("class", class)
                    .var("target", target),
            );
        }
    }
}
