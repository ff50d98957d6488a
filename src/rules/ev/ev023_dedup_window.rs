//! EV023: every consumer declares how long it remembers keys, and that
//! window outlasts the broker's longest redelivery interval plus the longest
//! replay the consumers must survive (a message redelivered late during a
//! replay arrives after both).
use super::common::{compare_with_duration, consumers, duration, written};
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

const BOUNDS: [(&str, &str); 2] = [
    ("/spec/redelivery/max_interval", "redelivery.max_interval"),
    ("/spec/replay_window", "replay_window"),
];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        // The bounds the boundary declares; the window must exceed their sum.
        let declared: Vec<(&str, Duration)> = BOUNDS
            .iter()
            .filter_map(|&(p, label)| Some((label, duration(c, p)?)))
            .collect();
        let limit = declared.iter().map(|(_, d)| *d).reduce(|a, b| a.plus(&b));
        let bound = declared
            .iter()
            .map(|(l, _)| *l)
            .collect::<Vec<_>>()
            .join(" + ");
        let shown = match declared.as_slice() {
            [(_, a), (_, b)] => limit.map(|l| format!("{} ({a} + {b})", l.exact_text())),
            _ => limit.map(|l| l.to_string()),
        };
        for consumer in consumers(c) {
            let store = consumer.text("/idempotency/store");
            if matches!(store, None | Some("none")) {
                continue;
            }
            let window = consumer.ptr("/idempotency/window");
            if c.get(&window).is_none() {
                // Checklist item 2 asks for the window per consumer: a
                // durable table purged by a job nobody declared forgets as
                // surely as a TTL.
                sink.push(
                    c.report(RuleId::EV023, &window)
                        .variant("missing")
                        .var("group", consumer.group())
                        .var("store", store.unwrap_or_default()),
                );
                continue;
            }
            let (Some(limit), Some(shown)) = (limit, shown.as_ref()) else {
                continue;
            };
            if matches!(
                compare_with_duration(c, &window, &bound, limit, sink),
                Some(Ordering::Less | Ordering::Equal)
            ) {
                sink.push(
                    c.report(RuleId::EV023, &window)
                        .var("group", consumer.group())
                        .var("window", written(c.get(&window)))
                        .var("bound", bound.as_str())
                        .var("limit", shown.as_str()),
                );
            }
        }
    }
}
