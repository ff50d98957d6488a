//! EV002: at-most-once is only for derived, rebuildable state.
use super::common::{consumers, delivery, is_critical};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if delivery(c) != Some("at-most-once") {
            continue;
        }
        for consumer in consumers(c) {
            for effect in consumer.effects() {
                if let Some(class) = effect.class().filter(|k| is_critical(k)) {
                    sink.push(
                        c.report(RuleId::EV002, &format!("{}/class", effect.base))
                            .var("group", consumer.group())
                            .var("class", class)
                            .var("loss", loss(class)),
                    );
                } else if effect.is_critical() {
                    sink.push(
                        c.report(RuleId::EV002, &format!("{}/irreversible", effect.base))
                            .variant("irreversible")
                            .var("group", consumer.group())
                            .var("kind", effect.kind().unwrap_or_default()),
                    );
                }
            }
        }
    }
}

/// What a dropped message loses, in words.
fn loss(class: &str) -> &'static str {
    match class {
        "money" => "money",
        "audit" => "an audit record",
        "regulated" => "a regulated record",
        _ => "a source-of-truth change",
    }
}
