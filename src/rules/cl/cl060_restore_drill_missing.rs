//! CL060: a restore drill is scheduled and its last success is dated.
use super::common::{missing, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under("/spec/restore_drill", &["cadence", "last_success"]);
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL060, &required) {
            sink.push(r);
        }
    }
}
