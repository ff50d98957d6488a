//! EV143: a query is not a durable message, and a command has one handler.
use super::common::{consumers, text};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        match text(c, "/spec/shape") {
            Some("query") => sink.push(
                c.report(RuleId::EV143, "/spec/shape")
                    .var("boundary", &c.name),
            ),
            Some("command") => {
                let mut groups: Vec<String> = consumers(c)
                    .iter()
                    .filter_map(|k| k.text("/group").map(str::to_string))
                    .collect();
                groups.sort();
                groups.dedup();
                if groups.len() > 1 {
                    sink.push(
                        c.report(RuleId::EV143, "/spec/consumers")
                            .variant("command")
                            .var("boundary", &c.name)
                            .var("count", groups.len())
                            .var("groups", groups.join(", ")),
                    );
                }
            }
            _ => {}
        }
    }
}
