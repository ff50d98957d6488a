//! EV110: the event contract names everything a consumer team needs: owner,
//! producer, consumer groups, payload schema, version and an event id to
//! dedup by — one finding per missing piece.
use super::common::{consumers, text};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::emit::Sink;
use crate::registry::RuleCtx;

fn blank(c: &Contract, pointer: &str) -> bool {
    text(c, pointer).is_none_or(|s| s.trim().is_empty())
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let report = |pointer: &str, variant: &'static str| {
            c.report(RuleId::EV110, pointer)
                .variant(variant)
                .var("boundary", &c.name)
        };
        // An absent owner is already a schema error (PC004); a blank one is not.
        if c.get("/metadata/owner").is_some() && blank(c, "/metadata/owner") {
            sink.push(report("/metadata/owner", "owner"));
        }
        if blank(c, "/spec/producer/service") {
            sink.push(report("/spec/producer/service", "producer"));
        }
        let groups = consumers(c);
        if groups.is_empty() {
            sink.push(report("/spec/consumers", "consumers"));
        }
        for consumer in &groups {
            if consumer.text("/group").is_none_or(|g| g.trim().is_empty()) {
                sink.push(report(&consumer.ptr("/group"), "group"));
            }
        }
        if blank(c, "/spec/schema/path") {
            sink.push(report("/spec/schema/path", "schema"));
        }
        if c.get("/spec/version").is_none() {
            sink.push(report("/spec/version", "version"));
        }
        let keyed = groups
            .iter()
            .any(|k| k.text("/idempotency/key").is_some_and(|key| key != "none"));
        if !groups.is_empty() && !keyed {
            sink.push(report("/spec/consumers", "event_id"));
        }
    }
}
