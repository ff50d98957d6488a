//! CL022: replica lag alerts before any query class's staleness budget is
//! breached, and reads are routed somewhere explicit.
use super::common::{compare_at, duration_at, fmt_millis, int_at, node, str_at};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const LIMIT: &str = "/spec/capacity/dimensions/replica_lag/limit";
const ALERT: &str = "/spec/capacity/dimensions/replica_lag/alert_at";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/read_replicas").is_none()
            || int_at(c, "/spec/read_replicas/count") == Some(0)
        {
            continue;
        }
        if node(c, "/spec/read_replicas/routing").is_none() {
            sink.push(
                c.report(RuleId::CL022, "/spec/read_replicas/routing")
                    .variant("routing"),
            );
        }
        let pct = node(c, ALERT)
            .and_then(|n| n.as_seq().first())
            .and_then(|n| n.as_i64());
        let (Some(limit), Some(pct)) = (duration_at(c, LIMIT), pct) else {
            continue;
        };
        // (class name, budget in ms) of the tightest budget.
        let mut tightest: Option<(String, i64)> = None;
        let classes = node(c, "/spec/read_replicas/query_classes").map_or(0, |n| n.as_seq().len());
        for i in 0..classes {
            let budget_ptr = format!("/spec/read_replicas/query_classes/{i}/staleness_budget");
            let Some((_, budget, _)) = compare_at(c, sink, LIMIT, &budget_ptr) else {
                continue;
            };
            let Some(ms) = budget.exact_millis() else {
                continue;
            };
            let name = str_at(c, &format!("/spec/read_replicas/query_classes/{i}/name"))
                .map_or(format!("#{}", i + 1), String::from);
            if tightest.as_ref().is_none_or(|(_, t)| ms < *t) {
                tightest = Some((name, ms));
            }
        }
        let (Some((class, budget)), Some(limit_ms)) = (tightest, limit.exact_millis()) else {
            continue;
        };
        // limit × pct / 100 > budget, without rounding.
        if i128::from(limit_ms) * i128::from(pct) > i128::from(budget) * 100 {
            let point = i128::from(limit_ms) * i128::from(pct) / 100;
            sink.push(
                c.report(RuleId::CL022, ALERT)
                    .var(
                        "point",
                        fmt_millis(i64::try_from(point).unwrap_or(i64::MAX)),
                    )
                    .var("pct", pct)
                    .var("limit", limit)
                    .var("class", class)
                    .var("budget", fmt_millis(budget)),
            );
        }
    }
}
