//! EV111: a consumer group is one processing responsibility; the same group
//! owned by two teams on two boundaries is two responsibilities sharing
//! offsets.
use super::common::consumers;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use std::collections::BTreeMap;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    // group -> (owner, boundary) of its first appearance, in workspace order.
    let mut first: BTreeMap<String, (String, String)> = BTreeMap::new();
    for c in ctx.ws.boundaries() {
        for consumer in consumers(c) {
            let (Some(group), Some(owner)) = (consumer.text("/group"), consumer.text("/owner"))
            else {
                continue;
            };
            match first.get(group) {
                None => {
                    first.insert(group.to_string(), (owner.to_string(), c.name.clone()));
                }
                Some((other_owner, other)) if other_owner != owner && *other != c.name => {
                    sink.push(
                        c.report(RuleId::EV111, &consumer.ptr("/owner"))
                            .var("group", group)
                            .var("owner", owner)
                            .var("other_owner", other_owner)
                            .var("other", other),
                    );
                }
                Some(_) => {}
            }
        }
    }
}
