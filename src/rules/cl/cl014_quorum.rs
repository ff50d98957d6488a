//! CL014: a consensus cluster declares its write quorum, and that quorum is
//! a majority that the replicas can actually provide.
use super::common::{int_at, majority, missing, node, str_at, under};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const MIN: &str = "/spec/ha/quorum/min_healthy_for_writes";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under("/spec/ha/quorum", &["replicas", "min_healthy_for_writes"]);
    for c in ctx.ws.judged_clusters() {
        let consensus = str_at(c, "/spec/ha/topology") == Some("consensus");
        if consensus || node(c, "/spec/ha/quorum").is_some() {
            for r in missing(c, RuleId::CL014, &required) {
                sink.push(r);
            }
        }
        let (Some(replicas), Some(min)) = (int_at(c, "/spec/ha/quorum/replicas"), int_at(c, MIN))
        else {
            continue;
        };
        let need = majority(replicas);
        let report = || {
            c.report(RuleId::CL014, MIN)
                .var("min", min)
                .var("replicas", replicas)
                .var("majority", need)
        };
        if min > replicas {
            sink.push(report().variant("unreachable"));
        } else if min < need {
            sink.push(report().variant("minority"));
        }
    }
}
