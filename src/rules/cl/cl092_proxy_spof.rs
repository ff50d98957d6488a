//! CL092: a connection proxy is never a single instance.
use super::common::{int_at, node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const HA: &str = "/spec/connections/proxy/ha";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/connections/proxy").is_none() {
            continue;
        }
        let kind = str_at(c, "/spec/connections/proxy/kind").unwrap_or("the proxy");
        let instances = int_at(c, "/spec/connections/proxy/instances");
        match str_at(c, HA) {
            Some("single") => sink.push(c.report(RuleId::CL092, HA).var("kind", kind)),
            None => sink.push(
                c.report(RuleId::CL092, HA)
                    .variant("undeclared")
                    .var("kind", kind),
            ),
            Some(ha) if instances == Some(1) => sink.push(
                c.report(RuleId::CL092, "/spec/connections/proxy/instances")
                    .variant("one_instance")
                    .var("kind", kind)
                    .var("ha", ha),
            ),
            Some(_) => {}
        }
    }
}
