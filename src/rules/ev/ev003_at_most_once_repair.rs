//! EV003: at-most-once is acceptable only with (a) a repair path, (b) a
//! documented freshness SLA and (c) an alerted repair path.
use super::common::written;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if super::common::delivery(c) != Some("at-most-once") {
            continue;
        }
        let b = || c.name.as_str();
        if c.get("/spec/at_most_once/repair").is_none() {
            sink.push(
                c.report(RuleId::EV003, "/spec/at_most_once/repair")
                    .var("boundary", b()),
            );
        }
        if c.get("/spec/at_most_once/freshness_sla").is_none() {
            sink.push(
                c.report(RuleId::EV003, "/spec/at_most_once/freshness_sla")
                    .variant("freshness")
                    .var("boundary", b()),
            );
        }
        let alerted = c.get("/spec/at_most_once/repair_alerted");
        if alerted.and_then(Node::as_bool) != Some(true) {
            sink.push(
                c.report(RuleId::EV003, "/spec/at_most_once/repair_alerted")
                    .variant("alert")
                    .var("boundary", b())
                    .var("value", written(alerted)),
            );
        }
    }
}
