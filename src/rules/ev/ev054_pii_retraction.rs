//! EV054: a PII field may one day have to stop being emitted; the emergency
//! path is written down before that day.
use super::common::strings;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let fields = strings(c.get("/spec/schema/pii_fields"));
        if fields.is_empty() || c.get("/spec/schema/retraction_path").is_some() {
            continue;
        }
        sink.push(
            c.report(RuleId::EV054, "/spec/schema/retraction_path")
                .var("boundary", &c.name)
                .var("fields", fields.join(", ")),
        );
    }
}
