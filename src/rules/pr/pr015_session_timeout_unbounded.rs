//! PR015: a production PostgreSQL whose sessions start without a statement
//! or idle-in-transaction time limit.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        let lifecycle = c.get("/metadata/lifecycle").and_then(Node::as_str);
        if lifecycle != Some("production") {
            continue;
        }
        for (setting, ms) in &f.timeouts {
            if *ms == 0 {
                sink.push(
                    c.report(RuleId::PR015, &p.pointer)
                        .var("target", &p.shown)
                        .var("setting", setting),
                );
            }
        }
    }
}
