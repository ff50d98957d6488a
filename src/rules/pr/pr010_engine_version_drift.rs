//! PR010: the server's product or version is not the declared one.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::probe::facts::version_matches;
use crate::registry::RuleCtx;

/// Products whose servers speak the probed protocol as themselves.
fn same_product(declared: &str, observed: &str) -> bool {
    match observed {
        "postgresql" => matches!(
            declared,
            "postgresql" | "aurora-postgresql" | "cloud-sql" | "alloydb"
        ),
        "mariadb" => declared == "mariadb",
        "mysql" => matches!(declared, "mysql" | "aurora-mysql" | "cloud-sql"),
        _ => true,
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        if let Some(d) = c.get("/spec/engine/product").and_then(Node::as_str)
            && d != "other"
            && !same_product(d, f.product)
        {
            sink.push(
                c.report(RuleId::PR010, "/spec/engine/product")
                    .variant("product")
                    .var("declared", d)
                    .var("target", &p.shown)
                    .var("observed", f.product),
            );
            continue;
        }
        if let Some(d) = c.get("/spec/engine/version").and_then(Node::scalar_text)
            && !version_matches(&d, &f.version)
        {
            sink.push(
                c.report(RuleId::PR010, "/spec/engine/version")
                    .var("declared", d)
                    .var("target", &p.shown)
                    .var("product", f.product)
                    .var("observed", &f.version),
            );
        }
    }
}
