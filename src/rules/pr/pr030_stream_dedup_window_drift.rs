//! PR030: the stream's publish deduplication is shorter than what the
//! boundary relies on.
use super::{duration_text, group, stream_consumers, streams};
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in streams(ctx) {
        let idempotent = c.get("/spec/producer/idempotent").and_then(Node::as_bool);
        if idempotent == Some(true) && f.duplicate_window_ms == 0 {
            sink.push(
                c.report(RuleId::PR030, "/spec/producer/idempotent")
                    .variant("none")
                    .var("stream", &f.stream)
                    .var("target", &p.shown),
            );
        }
    }
    for (c, p, f, n, consumer, _) in stream_consumers(ctx) {
        let store = consumer
            .pointer("/idempotency/store")
            .and_then(Node::as_str);
        let Some(window) = consumer.pointer("/idempotency/window") else {
            continue;
        };
        let Some(ms) = window
            .scalar_text()
            .and_then(|t| Duration::parse(&t).ok())
            .and_then(|d| d.exact_millis())
        else {
            continue;
        };
        if store == Some("none") && ms > f.duplicate_window_ms {
            sink.push(
                c.report(
                    RuleId::PR030,
                    &format!("/spec/consumers/{n}/idempotency/window"),
                )
                .var("group", group(consumer, n))
                .var("declared", window.scalar_text().unwrap_or_default())
                .var("stream", &f.stream)
                .var("target", &p.shown)
                .var("observed", duration_text(f.duplicate_window_ms)),
            );
        }
    }
}
