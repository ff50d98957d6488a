//! CL001: the engine class and the next-tier trigger and target are declared.
use super::common::missing;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = [
        "/spec/engine/class",
        "/spec/engine/next_tier/trigger",
        "/spec/engine/next_tier/target",
    ]
    .map(String::from);
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL001, &required) {
            sink.push(r);
        }
    }
}
