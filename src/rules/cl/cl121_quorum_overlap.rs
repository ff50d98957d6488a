//! CL121: read and write quorums must overlap (R + W > N), or a read can
//! miss the latest acknowledged write.
use super::common::node;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let int = |p: &str| node(c, p).and_then(Node::as_i64);
        let (Some(n), Some(r), Some(w)) = (
            int("/spec/ha/quorum/replicas"),
            int("/spec/ha/quorum/read"),
            int("/spec/ha/quorum/write"),
        ) else {
            continue;
        };
        if r.saturating_add(w) <= n {
            sink.push(
                c.report(RuleId::CL121, "/spec/ha/quorum/read")
                    .var("read", r)
                    .var("write", w)
                    .var("sum", r + w)
                    .var("replicas", n),
            );
        }
    }
}
