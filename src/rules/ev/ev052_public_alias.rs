//! EV052: internal event names must not cross a trust boundary as-is.
use super::common::text;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let Some(audience @ ("external" | "multi-tenant")) = text(c, "/spec/schema/audience")
        else {
            continue;
        };
        let event_type = text(c, "/spec/event_type");
        let pointer = "/spec/schema/public_alias";
        let report = c
            .report(RuleId::EV052, pointer)
            .var("boundary", &c.name)
            .var("audience", audience)
            .var("event_type", event_type.unwrap_or("(undeclared)"));
        match text(c, pointer) {
            None => sink.push(report),
            Some(alias) if Some(alias) == event_type => sink.push(report.variant("same")),
            Some(_) => {}
        }
    }
}
