//! MG108: a MySQL/MariaDB cluster's engine.version (or the config's
//! sql.version, which judges the migrations no cluster owns) without a
//! patch part: the lock rules judge the newest patch platcheck knows, and
//! say so.
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::{Report, Sink};
use crate::registry::RuleCtx;
use crate::sql::{Dialect, Version};

pub fn check(_ctx: &RuleCtx, sink: &mut Sink) {
    config_version(_ctx, sink);
    for c in _ctx.ws.judged_clusters() {
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

/// `sql.version` in the config, when `sql.dialect` is MySQL or MariaDB and
/// there are migrations to judge with it. The config is the workspace's
/// first file whenever one was read.
fn config_version(ctx: &RuleCtx, sink: &mut Sink) {
    let Some(node) = ctx
        .settings
        .config_root
        .as_ref()
        .and_then(|r| r.pointer("/sql/version"))
    else {
        return;
    };
    let Some(dialect) = Dialect::from_product(&ctx.settings.sql.dialect).filter(|d| d.is_mysql())
    else {
        return;
    };
    if ctx.ws.sql.is_empty() || ctx.ws.files.is_empty() {
        return;
    }
    let Some(written) = node.scalar_text() else {
        return;
    };
    let Some((assumed, true)) = Version::configured(&written, dialect) else {
        return;
    };
    let example_patch = assumed.2.saturating_sub(4).max(1);
    sink.push(
        Report::new(RuleId::MG108, 0, node.span)
            .variant("config")
            .var("written", written.trim())
            .var("assumed", assumed)
            .var("example_patch", example_patch),
    );
}
