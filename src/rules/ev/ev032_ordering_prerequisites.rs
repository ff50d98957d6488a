//! EV032: each per-key ordering strategy is only safe with its
//! prerequisites; one finding per missing prerequisite.
use super::common::{text, written};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// What a prerequisite asks of its value.
enum Need {
    True,
    Present,
    Is(&'static str),
}

const O: &str = "/spec/producer/outbox";

/// (strategy, pointer under the outbox, need, template variant)
const PREREQUISITES: &[(&str, &str, Need, &str)] = &[
    (
        "hash-routed",
        "/ordering/route_by",
        Need::Is("partition-key"),
        "route_by",
    ),
    (
        "hash-routed",
        "/ordering/epoch_fencing",
        Need::True,
        "epoch_fencing",
    ),
    (
        "hash-routed",
        "/ordering/drain_on_rebalance",
        Need::True,
        "drain",
    ),
    (
        "advisory-lease",
        "/ordering/lease_ttl",
        Need::Present,
        "lease_ttl",
    ),
    (
        "advisory-lease",
        "/ordering/lease_renewal",
        Need::True,
        "renewal",
    ),
    (
        "advisory-lease",
        "/ordering/fencing_token",
        Need::True,
        "fencing_token",
    ),
    (
        "advisory-lease",
        "/ordering/stale_lock_recovery",
        Need::True,
        "stale_lock",
    ),
    ("refuse-newer", "/abandoned_status", Need::True, "abandoned"),
    (
        "refuse-newer",
        "/alert_on_abandon",
        Need::True,
        "abandon_alert",
    ),
    (
        "refuse-newer",
        "/ordering/cross_key_policy",
        Need::Is("independent"),
        "cross_key",
    ),
];

fn met(c: &Contract, pointer: &str, need: &Need) -> bool {
    let node = c.get(pointer);
    match need {
        Need::True => node.and_then(Node::as_bool) == Some(true),
        Need::Present => node.is_some(),
        Need::Is(v) => node.and_then(Node::as_str) == Some(*v),
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let Some(strategy) = text(c, "/spec/producer/outbox/ordering/strategy") else {
            continue;
        };
        for (s, rel, need, variant) in PREREQUISITES {
            let pointer = format!("{O}{rel}");
            if *s != strategy || met(c, &pointer, need) {
                continue;
            }
            sink.push(
                c.report(RuleId::EV032, &pointer)
                    .variant(variant)
                    .var("boundary", &c.name)
                    .var("strategy", strategy)
                    .var("value", written(c.get(&pointer))),
            );
        }
    }
}
