//! CL093: services behind a transaction- or statement-mode proxy do not rely
//! on session state.
use super::common::{bool_at, node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(mode @ ("transaction" | "statement")) = str_at(c, "/spec/connections/proxy/mode")
        else {
            continue;
        };
        let kind = str_at(c, "/spec/connections/proxy/kind").unwrap_or("the proxy");
        let pools = node(c, "/spec/connections/pools").map_or(0, |n| n.as_seq().len());
        for i in 0..pools {
            let base = format!("/spec/connections/pools/{i}");
            let service = str_at(c, &format!("{base}/service")).unwrap_or("(unnamed)");
            let disabled =
                bool_at(c, &format!("{base}/prepared_statements_disabled")) == Some(true);
            let uses = node(c, &format!("{base}/uses")).map_or(&[][..], |n| n.as_seq());
            for (j, feature) in uses.iter().enumerate() {
                let Some(feature) = feature.as_str() else {
                    continue;
                };
                if feature == "prepared-statements" && disabled {
                    continue;
                }
                sink.push(
                    c.report(RuleId::CL093, &format!("{base}/uses/{j}"))
                        .var("service", service)
                        .var("feature", feature)
                        .var("kind", kind)
                        .var("mode", mode),
                );
            }
        }
    }
}
