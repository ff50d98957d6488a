//! PR034: the Kafka topic has another number of partitions than the
//! boundary declares.
use super::topics;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in topics(ctx) {
        if let Some(declared) = c.get("/spec/broker/partitions").and_then(Node::as_i64)
            && usize::try_from(declared).ok() != Some(f.partitions)
        {
            sink.push(
                c.report(RuleId::PR034, "/spec/broker/partitions")
                    .var("declared", declared)
                    .var("topic", &f.topic)
                    .var("target", &p.shown)
                    .var("observed", f.partitions),
            );
        }
    }
}
