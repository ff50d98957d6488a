//! CL091: the connection budget leaves 20% of the ceiling as headroom.
use super::budget;
use super::common::int_at;
use crate::catalog::RuleId;
use crate::contracts::units::thousands;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let (Some(max), Ok(b)) = (int_at(c, "/spec/connections/max"), budget::of(c)) else {
            continue;
        };
        let max = i128::from(max);
        // Above the ceiling is CL090's error; this is the band (80%, 100%].
        if b.total <= max && b.total.saturating_mul(100) > max * 80 && max > 0 {
            sink.push(
                c.report(RuleId::CL091, "/spec/connections/max")
                    .var("budget", thousands(b.total))
                    .var("breakdown", b.breakdown)
                    .var("pct", b.total * 100 / max)
                    .var("max", thousands(max)),
            );
        }
    }
}
