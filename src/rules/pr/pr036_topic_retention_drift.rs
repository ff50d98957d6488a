//! PR036: the Kafka topic does not keep its events for the replay window
//! the boundary declares (compacted, or deleted sooner), or the broker did
//! not say how long it keeps them.
use super::{duration_text, topics, unreported_why};
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    const AT: &str = "/spec/replay_window";
    for (c, p, f) in topics(ctx) {
        let Some(text) = c.get(AT).and_then(|n| n.scalar_text()) else {
            continue;
        };
        // A calendar window (`1mo`) has no exact length: EV/PC rules say so.
        let Some(window) = Duration::parse(&text).ok().and_then(|d| d.exact_millis()) else {
            continue;
        };
        let report = c
            .report(RuleId::PR036, AT)
            .var("declared", &text)
            .var("topic", &f.topic)
            .var("target", &p.shown);
        if f.compact_only() {
            sink.push(
                report
                    .variant("compact")
                    .var("policy", f.cleanup_policy.as_deref().unwrap_or_default()),
            );
            continue;
        }
        match f.retention_ms {
            // Not reported: unknown, and said so.
            None => sink.push(report.variant("unreported").var("why", unreported_why(f))),
            // -1: kept forever.
            Some(ms) if ms >= 0 && ms < window => {
                sink.push(report.var("observed", duration_text(ms)));
            }
            Some(_) => {}
        }
    }
}
