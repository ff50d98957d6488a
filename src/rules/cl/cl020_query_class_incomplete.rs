//! CL020: every query class that reads from replicas states how stale it may
//! be and where it goes when the replicas are staler than that.
use super::common::{missing, node, str_at, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        let Some(classes) = node(c, "/spec/read_replicas/query_classes") else {
            continue;
        };
        for i in 0..classes.as_seq().len() {
            let base = format!("/spec/read_replicas/query_classes/{i}");
            let name = str_at(c, &format!("{base}/name"))
                .map_or(format!("#{}", i + 1), |n| format!("`{n}`"));
            for r in missing(
                c,
                RuleId::CL020,
                &under(&base, &["staleness_budget", "fallback"]),
            ) {
                sink.push(r.var("class", &name));
            }
            // The reference's path is back to the primary; serving stale
            // rows or failing is a choice the class must justify.
            let fallback = format!("{base}/fallback");
            if let Some(f) = str_at(c, &fallback)
                && f != "primary"
                && str_at(c, &format!("{base}/fallback_reason")).is_none_or(|r| r.trim().is_empty())
            {
                sink.push(
                    c.report(RuleId::CL020, &fallback)
                        .variant("unjustified")
                        .var("class", &name)
                        .var("fallback", f),
                );
            }
        }
    }
}
