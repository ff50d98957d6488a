//! CL010: the HA model is stated in full.
use super::common::{missing, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under(
        "/spec/ha",
        &[
            "topology",
            "failover",
            "replication",
            "placement",
            "rpo",
            "rto",
        ],
    );
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL010, &required) {
            sink.push(r);
        }
    }
}
