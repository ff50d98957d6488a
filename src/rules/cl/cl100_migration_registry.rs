//! CL100: a cluster's migrations are tracked in the fleet registry, use a
//! declared tool, and pass an approval gate.
use super::common::{bool_at, missing, node, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under("/spec/migrations", &["tool", "registry", "approval_gate"]);
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/migrations").is_none() {
            continue;
        }
        for r in missing(c, RuleId::CL100, &required) {
            sink.push(r);
        }
        if bool_at(c, "/spec/migrations/approval_gate") == Some(false) {
            sink.push(
                c.report(RuleId::CL100, "/spec/migrations/approval_gate")
                    .variant("no_gate"),
            );
        }
    }
}
