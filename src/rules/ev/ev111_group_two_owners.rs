//! EV111: a consumer group is one processing responsibility; the same group
//! owned by two teams on two boundaries is two responsibilities sharing
//! offsets.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::collections::{BTreeMap, BTreeSet};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let wanted = wanted_groups(ctx);
    // group -> (owner, service, boundary) of its first appearance, in
    // workspace order.
    let mut first: BTreeMap<String, (Option<String>, Option<String>, String)> = BTreeMap::new();
    for c in ctx.ws.boundaries() {
        if let Some(groups) = &wanted
            && !ctx
                .ws
                .files
                .get(c.file)
                .is_none_or(|f| may_hold(&f.text, groups))
        {
            continue;
        }
        for consumer in consumers(c) {
            let Some(group) = consumer.text("/group") else {
                continue;
            };
            let owner = consumer.text("/owner");
            let service = consumer.text("/service");
            let Some((other_owner, other_service, other)) = first.get(group) else {
                first.insert(
                    group.to_string(),
                    (
                        owner.map(str::to_string),
                        service.map(str::to_string),
                        c.name.clone(),
                    ),
                );
                continue;
            };
            if let (Some(o), Some(oo)) = (owner, other_owner)
                && o != oo
                && *other != c.name
            {
                sink.push(
                    c.report(RuleId::EV111, &consumer.ptr("/owner"))
                        .var("group", group)
                        .var("owner", o)
                        .var("other_owner", oo)
                        .var("other", other),
                );
            } else if let (Some(s), Some(os)) = (service, other_service)
                && s != os
            {
                // Two deployables in one group split its messages between
                // them: each sees a random part of the stream.
                sink.push(
                    c.report(RuleId::EV111, &consumer.ptr("/service"))
                        .variant("service")
                        .var("group", group)
                        .var("service", s)
                        .var("other_service", os)
                        .var("other", other),
                );
            }
        }
    }
}

/// In a run limited to named files, the groups of the judged boundaries:
/// only those boundaries get findings, and their findings read only the
/// first appearance of their own groups. `None`: every boundary is judged.
fn wanted_groups(ctx: &RuleCtx) -> Option<BTreeSet<String>> {
    if ctx.ws.judged_boundaries().count() == ctx.ws.boundaries().count() {
        return None;
    }
    let groups = ctx
        .ws
        .judged_boundaries()
        .flat_map(consumers)
        .filter_map(|consumer| consumer.text("/group").map(str::to_string))
        .collect();
    Some(groups)
}

/// Whether a contract file's text can hold a consumer of one of `groups`,
/// read without decoding its contracts (a one-file run would otherwise
/// decode the consumers of 3,000 boundaries to compare four groups). A
/// YAML string equals a stretch of its text unless it is escaped (a
/// backslash), has quotes doubled (`'it''s'`) or is folded across lines
/// (whitespace): for such a text or group the answer is yes.
fn may_hold(text: &str, groups: &BTreeSet<String>) -> bool {
    text.contains('\\')
        || groups.iter().any(|g| {
            g.is_empty()
                || g.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                || text.contains(g.as_str())
        })
}

#[cfg(test)]
mod tests {
    use super::may_hold;
    use std::collections::BTreeSet;

    fn set(groups: &[&str]) -> BTreeSet<String> {
        groups.iter().map(|g| g.to_string()).collect()
    }

    #[test]
    fn a_text_without_the_group_cannot_hold_it() {
        let text = "spec:\n  consumers:\n    - group: billing\n";
        assert!(may_hold(text, &set(&["billing"])));
        assert!(!may_hold(text, &set(&["shipping"])));
    }

    #[test]
    fn escapes_doubled_quotes_and_folding_are_not_ruled_out() {
        // "\x62illing" is `billing`; 'o''brien' is `o'brien`; a plain
        // scalar folded over two lines is `a b`.
        assert!(may_hold("group: \"\\x62illing\"\n", &set(&["billing"])));
        assert!(may_hold("group: 'o''brien'\n", &set(&["o'brien"])));
        assert!(may_hold("group: a\n  b\n", &set(&["a b"])));
    }
}
