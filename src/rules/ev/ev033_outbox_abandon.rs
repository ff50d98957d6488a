//! EV033: an outbox poller must give up on a poison row, mark it abandoned
//! and alert, or the row blocks its key forever.
use super::common::{text, written};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let has_outbox = text(c, "/spec/producer/publish") == Some("outbox")
            || c.get("/spec/producer/outbox").is_some();
        if !has_outbox {
            continue;
        }
        let pieces = [
            (
                "/spec/producer/outbox/max_publish_failures",
                "max_failures",
                false,
            ),
            ("/spec/producer/outbox/abandoned_status", "abandoned", true),
            ("/spec/producer/outbox/alert_on_abandon", "alert", true),
        ];
        for (pointer, variant, boolean) in pieces {
            let node = c.get(pointer);
            let ok = if boolean {
                node.and_then(Node::as_bool) == Some(true)
            } else {
                node.and_then(Node::as_i64).is_some_and(|n| n > 0)
            };
            if !ok {
                sink.push(
                    c.report(RuleId::EV033, pointer)
                        .variant(variant)
                        .var("boundary", &c.name)
                        .var("value", written(node)),
                );
            }
        }
    }
}
