//! CL090: the connections the engine will see fit under its ceiling.
use super::budget::{self, Unknown};
use super::common::{int_at, node};
use crate::catalog::RuleId;
use crate::contracts::units::thousands;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/connections").is_none() {
            sink.push(
                c.report(RuleId::CL090, "/spec/connections")
                    .variant("undeclared"),
            );
            continue;
        }
        let Some(max) = int_at(c, "/spec/connections/max") else {
            // A value that is there but not an i64 (a string, 2^63) was
            // reported by the loader (PC004); it is not "not declared".
            if node(c, "/spec/connections/max").is_some_and(|n| !n.is_null()) {
                continue;
            }
            sink.push(
                c.report(RuleId::CL090, "/spec/connections/max")
                    .variant("no_max"),
            );
            continue;
        };
        match budget::of(c) {
            Ok(b) if b.total > i128::from(max) => sink.push(
                c.report(RuleId::CL090, "/spec/connections/max")
                    .var("budget", thousands(b.total))
                    .var("breakdown", b.breakdown)
                    .var("max", thousands(max.into())),
            ),
            Ok(_) => {}
            Err(Unknown::Pool(i, service)) => sink.push(
                c.report(RuleId::CL090, &format!("/spec/connections/pools/{i}"))
                    .variant("pool")
                    .var("service", service),
            ),
            Err(Unknown::ServerPool) => sink.push(
                c.report(RuleId::CL090, "/spec/connections/proxy/server_pool_size")
                    .variant("server_pool")
                    .var("max", thousands(max.into())),
            ),
        }
    }
}
