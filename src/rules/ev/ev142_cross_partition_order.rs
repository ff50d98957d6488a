//! EV142: global order exists only on one partition.
use super::common::{broker_kind, partitioned_log, text};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if text(c, "/spec/ordering/scope") != Some("global") {
            continue;
        }
        let partitions = c.get("/spec/broker/partitions").and_then(Node::as_i64);
        let shown = match partitions {
            Some(1) => continue,
            Some(n) => format!("{n} partitions"),
            None if partitioned_log(broker_kind(c)) => "an undeclared number of partitions".into(),
            None => continue,
        };
        sink.push(
            c.report(RuleId::EV142, "/spec/ordering/scope")
                .var("boundary", &c.name)
                .var("partitions", shown),
        );
    }
}
