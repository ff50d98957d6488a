//! EV141: an ordered boundary's outbox is published in outbox_id order.
use super::common::{ordering_required, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if text(c, "/spec/producer/publish") != Some("outbox") || !ordering_required(c) {
            continue;
        }
        let at = "/spec/producer/outbox/order_by";
        if let Some(order) = text(c, at)
            && order != "outbox_id"
        {
            sink.push(
                c.report(RuleId::EV141, at)
                    .var("boundary", &c.name)
                    .var("order_by", order),
            );
        }
    }
}
