//! PR012: fewer streaming replicas than declared, a replica that is not
//! streaming, or replay lag over the lag budget.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

/// The lag budget: the capacity dimension, else the tightest staleness budget.
fn budget(c: &Contract) -> Option<(i64, String, &'static str)> {
    let parse = |n: &Node| {
        n.scalar_text()
            .and_then(|t| Duration::parse(&t).ok())
            .and_then(|d| d.exact_millis().map(|ms| (ms, d.as_written().to_string())))
    };
    if let Some(b) = c
        .get("/spec/capacity/dimensions/replica_lag/limit")
        .and_then(parse)
    {
        return Some((b.0, b.1, "capacity.dimensions.replica_lag.limit"));
    }
    c.get("/spec/read_replicas/query_classes")?
        .as_seq()
        .iter()
        .filter_map(|q| q.get("staleness_budget").and_then(parse))
        .min_by_key(|b| b.0)
        .map(|b| (b.0, b.1, "read_replicas.query_classes[].staleness_budget"))
}

fn shown_ms(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        let Some(replicas) = &f.replicas else {
            continue;
        };
        let Some(declared) = c.get("/spec/read_replicas/count").and_then(Node::as_i64) else {
            continue;
        };
        let streaming = replicas.iter().filter(|r| r.state == "streaming").count();
        if i64::try_from(streaming).unwrap_or(i64::MAX) < declared {
            sink.push(
                c.report(RuleId::PR012, "/spec/read_replicas/count")
                    .var("declared", declared)
                    .var("target", &p.shown)
                    .var("observed", streaming),
            );
        }
        for r in replicas.iter().filter(|r| r.state != "streaming") {
            sink.push(
                c.report(RuleId::PR012, "/spec/read_replicas")
                    .variant("state")
                    .var("replica", &r.name)
                    .var("target", &p.shown)
                    .var("state", &r.state),
            );
        }
        if let Some((limit, written, field)) = budget(c) {
            for r in replicas {
                if let Some(lag) = r.replay_lag_ms.filter(|&l| l > limit) {
                    sink.push(
                        c.report(RuleId::PR012, "/spec/read_replicas")
                            .variant("lag")
                            .var("replica", &r.name)
                            .var("target", &p.shown)
                            .var("lag", shown_ms(lag))
                            .var("budget", &written)
                            .var("field", field),
                    );
                }
            }
        }
    }
}
