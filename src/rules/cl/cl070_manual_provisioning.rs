//! CL070: the cluster is provisioned from declarative infrastructure code.
use super::common::{node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const BY: &str = "/spec/lifecycle/provisioned_by";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        match str_at(c, BY) {
            Some("manual") => sink.push(c.report(RuleId::CL070, BY)),
            None if node(c, BY).is_none() => {
                sink.push(c.report(RuleId::CL070, BY).variant("undeclared"));
            }
            _ => {}
        }
    }
}
