//! EV061: a retry budget belongs to the resource with the hard quota; a
//! consumer that calls a shared downstream cannot budget per consumer.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// The quota scope a boundary declares for a downstream, if any.
fn quota_scope<'a>(c: &'a Contract, name: &str) -> Option<&'a str> {
    c.get("/spec/downstreams")
        .map_or(&[][..], Node::as_seq)
        .iter()
        .find(|d| d.get("name").and_then(Node::as_str) == Some(name))?
        .get("quota_scope")?
        .as_str()
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let Some(downstream) = consumer.text("/retry/downstream") else {
                continue;
            };
            let pointer = consumer.ptr("/retry/budget_scope");
            let scope = consumer.text("/retry/budget_scope");
            let quota = quota_scope(c, downstream);
            let report = |variant: &'static str| {
                c.report(RuleId::EV061, &pointer)
                    .variant(variant)
                    .var("group", consumer.group())
                    .var("downstream", downstream)
                    .var("scope", scope.unwrap_or("not declared"))
                    .var("quota", quota.unwrap_or("undeclared"))
            };
            match (scope, quota) {
                (None | Some("per-consumer"), _) => sink.push(report("per_consumer")),
                // "per-provider alone is insufficient when the real limit is
                // per-region or per-method": the scopes must be the same.
                (Some(s), Some(q)) if s != q => sink.push(report("mismatch")),
                _ => {}
            }
        }
    }
}
