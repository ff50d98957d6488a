//! EV023: the dedup window must outlast both the broker's longest redelivery
//! interval and the longest replay the consumers must survive.
use super::common::{compare, consumers, duration, written};
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
    for c in ctx.ws.boundaries() {
        for consumer in consumers(c) {
            let store = consumer.text("/idempotency/store");
            if matches!(store, None | Some("none")) {
                continue;
            }
            let window = consumer.ptr("/idempotency/window");
            if c.get(&window).is_none() {
                // A durable table keeps its keys until someone purges them; a
                // TTL-based store forgets on a schedule nobody declared.
                if store.is_some_and(|s| s.starts_with("redis")) {
                    sink.push(
                        c.report(RuleId::EV023, &window)
                            .variant("missing")
                            .var("group", consumer.group())
                            .var("store", store.unwrap_or_default()),
                    );
                }
                continue;
            }
            // The longest bound the window does not exceed, named in the message.
            let mut worst: Option<(&str, &str, Duration)> = None;
            for (pointer, label) in BOUNDS {
                if !matches!(
                    compare(c, &window, pointer, sink),
                    Some(Ordering::Less | Ordering::Equal)
                ) {
                    continue;
                }
                let Some(bound) = duration(c, pointer) else {
                    continue;
                };
                if worst.is_none_or(|(_, _, w)| bound.compare(&w) == Some(Ordering::Greater)) {
                    worst = Some((pointer, label, bound));
                }
            }
            if let Some((_, label, bound)) = worst {
                sink.push(
                    c.report(RuleId::EV023, &window)
                        .var("group", consumer.group())
                        .var("window", written(c.get(&window)))
                        .var("bound", label)
                        .var("limit", bound),
                );
            }
        }
    }
}
