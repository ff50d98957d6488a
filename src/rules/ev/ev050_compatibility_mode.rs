//! EV050: a schema compatibility mode must be declared; fanout to many teams
//! defaults to full compatibility.
use super::common::text;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::finding::Severity;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let pointer = "/spec/schema/compatibility";
        match text(c, pointer) {
            None if c.get(pointer).is_none() => {
                sink.push(c.report(RuleId::EV050, pointer).var("boundary", &c.name));
            }
            Some(mode)
                if text(c, "/spec/schema/audience") == Some("multi-team")
                    && !matches!(mode, "full" | "full-transitive") =>
            {
                sink.push(
                    // The catalogue: missing mode E, a weaker mode for many teams W.
                    c.report(RuleId::EV050, pointer)
                        .variant("not_full")
                        .severity(Severity::Warning)
                        .var("boundary", &c.name)
                        .var("mode", mode),
                );
            }
            _ => {}
        }
    }
}
