//! The `policy:` section of platcheck.yaml: the switches for the places
//! where the reference documents leave a number open or disagree with each
//! other, so a team that legitimately differs says so once, in the config,
//! instead of suppressing a rule on every contract.
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::registry::RuleCtx;

/// The longest cadences accepted when a contract declares its own
/// (CL012, CL061): a declared cadence is a promise, and `3y` is not one.
pub const FAILOVER_TEST_MAX: &str = "365d";
pub const RESTORE_DRILL_MAX: &str = "180d";

fn section<'a>(ctx: &RuleCtx<'a>, key: &str) -> Option<&'a Node> {
    ctx.settings.config_root.as_ref()?.get("policy")?.get(key)
}

/// `policy.max_cadence.<what>`, or the default; an unparseable value was
/// reported against the config and keeps the default.
pub fn max_cadence(ctx: &RuleCtx, what: &str, default: &str) -> Duration {
    section(ctx, "max_cadence")
        .and_then(|n| n.get(what))
        .and_then(Node::scalar_text)
        .and_then(|t| Duration::parse(&t).ok())
        .or_else(|| Duration::parse(default).ok())
        .unwrap_or(Duration::ZERO)
}

/// A string switch `policy.<key>`, or `default` when unset.
pub fn switch<'a>(ctx: &RuleCtx<'a>, key: &str, default: &'a str) -> &'a str {
    section(ctx, key).and_then(Node::as_str).unwrap_or(default)
}

/// A number `policy.<key>`, or `default` when unset.
pub fn number(ctx: &RuleCtx, key: &str, default: i64) -> i64 {
    section(ctx, key).and_then(Node::as_i64).unwrap_or(default)
}

/// Whether `d` is longer than `max`, a calendar month counting as its
/// average length (30.44 days), as the launch report's `at_most` does: a
/// `3y` cadence is too sparse whatever the date.
pub fn exceeds(d: &Duration, max: &Duration) -> bool {
    const MONTH_MS: f64 = 30.44 * 86_400_000.0;
    let ms = |x: &Duration| x.months as f64 * MONTH_MS + x.millis as f64;
    ms(d) > ms(max)
}
