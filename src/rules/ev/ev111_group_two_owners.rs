//! EV111: a consumer group is one processing responsibility; the same group
//! owned by two teams on two boundaries is two responsibilities sharing
//! offsets.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::collections::BTreeMap;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    // group -> (owner, service, boundary) of its first appearance, in
    // workspace order.
    let mut first: BTreeMap<String, (Option<String>, Option<String>, String)> = BTreeMap::new();
    for c in ctx.ws.boundaries() {
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
