//! CL021: replicas that no query class reads from are paid for and unused.
use super::common::{int_at, node};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(count) = int_at(c, "/spec/read_replicas/count").filter(|n| *n > 0) else {
            continue;
        };
        let readers = node(c, "/spec/read_replicas/query_classes").map_or(0, |n| n.as_seq().len());
        if readers == 0 {
            sink.push(
                c.report(RuleId::CL021, "/spec/read_replicas/query_classes")
                    .var("count", count),
            );
        }
    }
}
