//! MG108: a MySQL/MariaDB cluster's engine.version without a patch part:
//! the lock rules judge the newest patch platcheck knows, and say so.
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::{Dialect, Version};

pub fn check(_ctx: &RuleCtx, sink: &mut Sink) {
    for c in _ctx.ws.clusters() {
        let Some(dialect) = c
            .get("/spec/engine/product")
            .and_then(Node::as_str)
            .and_then(Dialect::from_product)
            .filter(|d| d.is_mysql())
        else {
            continue;
        };
        let pointer = "/spec/engine/version";
        let Some(written) = c.get(pointer).and_then(Node::scalar_text) else {
            continue;
        };
        let Some((assumed, true)) = Version::configured(&written, dialect) else {
            continue;
        };
        let example_patch = assumed.2.saturating_sub(4).max(1);
        sink.push(
            c.report(RuleId::MG108, pointer)
                .var("written", written.trim())
                .var("assumed", assumed)
                .var("example_patch", example_patch),
        );
    }
}
