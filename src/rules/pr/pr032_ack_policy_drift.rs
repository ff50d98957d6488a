//! PR032: a durable consumer that acknowledges nothing for an at-least-once
//! boundary, or lets a serial consumer hold several messages.
use super::{group, stream_consumers};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, _, n, consumer, cf) in stream_consumers(ctx) {
        let delivery = c.get("/spec/delivery").and_then(Node::as_str);
        if let Some(d @ ("at-least-once" | "exactly-once")) = delivery
            && cf.ack_policy == "none"
        {
            sink.push(
                c.report(RuleId::PR032, "/spec/delivery")
                    .var("group", group(consumer, n))
                    .var("delivery", d)
                    .var("target", &p.shown),
            );
        }
        if consumer.get("concurrency").and_then(Node::as_str) == Some("serial")
            && cf.max_ack_pending != 1
        {
            sink.push(
                c.report(RuleId::PR032, &format!("/spec/consumers/{n}/concurrency"))
                    .variant("pending")
                    .var("group", group(consumer, n))
                    .var("target", &p.shown)
                    .var("observed", cf.max_ack_pending),
            );
        }
    }
}
