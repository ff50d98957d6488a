//! XR002: a table on a cluster's primary used as the queue between services
//! spends the primary's connections and IOPS on queue traffic and offers no
//! fanout, replay or lag visibility.
use crate::catalog::RuleId;
use crate::contracts::Kind;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::ev::common::{and_list, other_consumer_services, text};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        if text(c, "/spec/broker/kind") != Some("db-polling") {
            continue;
        }
        let name = text(c, "/spec/broker/cluster").or(text(c, "/spec/producer/outbox/cluster"));
        let Some(cluster) = name.and_then(|n| ctx.ws.find(Kind::Cluster, n)) else {
            continue;
        };
        let producer = text(c, "/spec/producer/service");
        let others = other_consumer_services(c);
        if others.is_empty() {
            continue;
        }
        sink.push(
            c.report(RuleId::XR002, "/spec/broker/kind")
                .var("boundary", &c.name)
                .var("cluster", &cluster.name)
                .var("producer", producer.unwrap_or("the producer"))
                .var("services", and_list(&others)),
        );
    }
}
