//! PR031: the durable consumer's redelivery limit and backoff against the
//! consumer group's retry budget.
use super::{duration_text, group, managed_queues, stream_consumers};
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, _, n, consumer, cf) in stream_consumers(ctx) {
        let base = format!("/spec/consumers/{n}/retry");
        let report = || {
            c.report(RuleId::PR031, &format!("{base}/max_attempts"))
                .var("group", group(consumer, n))
                .var("target", &p.shown)
        };
        if let Some(attempts) = consumer
            .pointer("/retry/max_attempts")
            .and_then(Node::as_i64)
        {
            if cf.max_deliver <= 0 {
                sink.push(report().variant("unlimited").var("declared", attempts));
            } else if cf.max_deliver != attempts {
                sink.push(
                    report()
                        .var("declared", attempts)
                        .var("observed", cf.max_deliver),
                );
            }
        }
        let longest = cf.backoff_ms.iter().copied().max().unwrap_or(0);
        if let Some(node) = consumer.pointer("/retry/max_delay")
            && let Some(text) = node.scalar_text()
            && let Some(limit) = Duration::parse(&text).ok().and_then(|d| d.exact_millis())
            && longest > limit
        {
            sink.push(
                c.report(RuleId::PR031, &format!("{base}/max_delay"))
                    .variant("backoff")
                    .var("group", group(consumer, n))
                    .var("declared", text)
                    .var("target", &p.shown)
                    .var("observed", duration_text(longest)),
            );
        }
    }
    for (c, p, f) in managed_queues(ctx) {
        let Some(consumers) = c.get("/spec/consumers") else {
            continue;
        };
        for (n, consumer) in consumers.as_seq().iter().enumerate() {
            let report = |pointer: String| {
                c.report(RuleId::PR031, &pointer)
                    .var("group", group(consumer, n))
                    .var("queue", &f.queue)
                    .var("target", &p.shown)
            };
            if let Some(attempts) = consumer
                .pointer("/retry/max_attempts")
                .and_then(Node::as_i64)
            {
                let pointer = format!("/spec/consumers/{n}/retry/max_attempts");
                match f.delivery_limit {
                    // The limit counts redeliveries: limit + 1 deliveries in all.
                    Some(limit) if limit.saturating_add(1) != attempts => sink.push(
                        report(pointer)
                            .variant("queue")
                            .var("declared", attempts)
                            .var("observed", limit.saturating_add(1))
                            .var("limit", limit),
                    ),
                    Some(_) => {}
                    None => sink.push(
                        report(pointer)
                            .variant("queue_unlimited")
                            .var("declared", attempts)
                            .var("kind", &f.kind),
                    ),
                }
            }
            if let Some(dest) = consumer.pointer("/dlq/destination").and_then(Node::as_str)
                && f.dead_letter_exchange.is_none()
            {
                sink.push(
                    report(format!("/spec/consumers/{n}/dlq/destination"))
                        .variant("dead_letter")
                        .var("destination", dest),
                );
            }
        }
    }
}
