//! PR014: `connections.max` is not the server's `max_connections`.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        if let (Some(declared), Some(observed)) = (
            c.get("/spec/connections/max").and_then(Node::as_i64),
            f.max_connections,
        ) && declared != observed
        {
            sink.push(
                c.report(RuleId::PR014, "/spec/connections/max")
                    .var("declared", declared)
                    .var("target", &p.shown)
                    .var("observed", observed),
            );
        }
    }
}
