//! PR035: the Kafka topic's `min.insync.replicas` is not what the boundary
//! declares, or the broker did not say what it is.
use super::{topics, unreported_why};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    const AT: &str = "/spec/broker/min_insync_replicas";
    for (c, p, f) in topics(ctx) {
        let Some(declared) = c.get(AT).and_then(Node::as_i64) else {
            continue;
        };
        let report = c
            .report(RuleId::PR035, AT)
            .var("declared", declared)
            .var("topic", &f.topic)
            .var("target", &p.shown);
        match f.min_insync_replicas {
            // A declared value nobody could check is said, not taken as true.
            None => sink.push(report.variant("unreported").var("why", unreported_why(f))),
            Some(observed) if observed != declared => {
                sink.push(report.var("observed", observed));
            }
            Some(_) => {}
        }
    }
}
