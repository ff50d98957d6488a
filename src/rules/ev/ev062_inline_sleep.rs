//! EV062: long sleeps inside the handler hold the partition; past tens of
//! seconds the broker should redeliver instead.
use super::common::{compare_with, consumers, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::cmp::Ordering;

const LIMIT: &str = "30s";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        for consumer in consumers(c) {
            let pointer = consumer.ptr("/retry/inline_sleep_max");
            if compare_with(c, &pointer, LIMIT, sink) == Some(Ordering::Greater) {
                sink.push(
                    c.report(RuleId::EV062, &pointer)
                        .var("group", consumer.group())
                        .var("value", written(c.get(&pointer)))
                        .var("limit", LIMIT),
                );
            }
        }
    }
}
