//! CL094: eager pool warmup without a proxy cannot open half the ceiling at
//! once.
use super::budget;
use super::common::{int_at, node};
use crate::catalog::RuleId;
use crate::contracts::units::thousands;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/connections/proxy").is_some() {
            continue;
        }
        let Some(max) = int_at(c, "/spec/connections/max") else {
            continue;
        };
        let Ok(pools) = budget::pools(c) else {
            continue;
        };
        for (i, p) in pools.iter().enumerate() {
            let at = format!("/spec/connections/pools/{i}/warmup");
            if node(c, &at).and_then(|n| n.as_str()) != Some("eager") {
                continue;
            }
            let burst = i128::from(p.instances) * i128::from(p.pool_size);
            if burst * 2 > i128::from(max) {
                sink.push(
                    c.report(RuleId::CL094, &at)
                        .var("service", &p.service)
                        .var("instances", thousands(p.instances.into()))
                        .var("pool_size", thousands(p.pool_size.into()))
                        .var("burst", thousands(burst))
                        .var("pct", burst * 100 / i128::from(max.max(1)))
                        .var("max", thousands(max.into())),
                );
            }
        }
    }
}
