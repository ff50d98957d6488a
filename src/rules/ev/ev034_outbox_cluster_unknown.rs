//! EV034: the outbox lives in a database; the contract must name a Cluster
//! contract so its HA and replication can be judged (see XR001).
use super::common::text;
use crate::catalog::RuleId;
use crate::contracts::Kind;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let pointer = "/spec/producer/outbox/cluster";
        match text(c, pointer) {
            Some(name) if ctx.ws.find(Kind::Cluster, name).is_none() => {
                // Every cluster of the repository, judged or not.
                let mut known: Vec<&str> = ctx.ws.clusters().map(|k| k.name.as_str()).collect();
                known.sort_unstable();
                let known = if known.is_empty() {
                    " (the workspace has no Cluster contracts)".to_string()
                } else {
                    format!(" (known clusters: {})", known.join(", "))
                };
                sink.push(
                    c.report(RuleId::EV034, pointer)
                        .var("boundary", &c.name)
                        .var("cluster", name)
                        .var("known", known),
                );
            }
            None if text(c, "/spec/producer/publish") == Some("outbox") => {
                sink.push(
                    c.report(RuleId::EV034, pointer)
                        .variant("missing")
                        .var("boundary", &c.name),
                );
            }
            _ => {}
        }
    }
}
