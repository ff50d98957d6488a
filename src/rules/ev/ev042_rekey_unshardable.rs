//! EV042: when the ordering boundary cannot be split, re-keying hot keys
//! breaks the very ordering the key exists for.
use super::common::text;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let shardable = c
            .get("/spec/ordering/boundary_shardable")
            .and_then(Node::as_bool);
        let Some(mitigation @ ("sub-key-suffix" | "time-rekey")) =
            text(c, "/spec/ordering/hot_key_mitigation")
        else {
            continue;
        };
        if shardable == Some(false) {
            sink.push(
                c.report(RuleId::EV042, "/spec/ordering/hot_key_mitigation")
                    .var("boundary", &c.name)
                    .var("mitigation", mitigation),
            );
        }
    }
}
