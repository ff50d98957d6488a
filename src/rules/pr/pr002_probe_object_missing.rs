//! PR002: a table, stream, durable consumer, queue or topic the contract names does not
//! exist on the probed system.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        for t in f.tables.iter().filter(|t| t.rows.is_none()) {
            let (pointer, field) = super::pr016_table_size_drift::table_field(c, &t.name);
            sink.push(
                c.report(RuleId::PR002, &pointer)
                    .var("table", &t.name)
                    .var("field", field)
                    .var("target", &p.shown),
            );
        }
    }
    let Some(obs) = ctx.probe() else { return };
    for (i, c) in ctx.ws.contracts.iter().enumerate() {
        // AMQP and the management API both say when a queue is missing: once.
        let missing_queue = obs
            .queue(i)
            .filter(|(_, f)| !f.exists)
            .map(|(p, f)| (p, f.queue.as_str()))
            .or_else(|| {
                obs.managed_queue(i)
                    .filter(|(_, f)| !f.exists)
                    .map(|(p, f)| (p, f.queue.as_str()))
            });
        if let Some((p, queue)) = missing_queue {
            let (pointer, field) = match c.get("/spec/probe/queue") {
                Some(_) => ("/spec/probe/queue", "probe.queue"),
                None => ("/spec/broker/topic", "broker.topic"),
            };
            sink.push(
                c.report(RuleId::PR002, pointer)
                    .variant("queue")
                    .var("queue", queue)
                    .var("field", field)
                    .var("target", &p.shown),
            );
        }
        if let Some((p, f)) = obs.topic(i).filter(|(_, f)| !f.exists) {
            let (pointer, field) = match c.get("/spec/probe/topic") {
                Some(_) => ("/spec/probe/topic", "probe.topic"),
                None => ("/spec/broker/topic", "broker.topic"),
            };
            sink.push(
                c.report(RuleId::PR002, pointer)
                    .variant("topic")
                    .var("topic", &f.topic)
                    .var("field", field)
                    .var("target", &p.shown),
            );
        }
        let Some((p, f)) = obs.stream(i) else {
            continue;
        };
        if !f.exists {
            let (pointer, field) = match c.get("/spec/probe/stream") {
                Some(_) => ("/spec/probe/stream", "probe.stream"),
                None => ("/spec/broker/topic", "broker.topic"),
            };
            sink.push(
                c.report(RuleId::PR002, pointer)
                    .variant("stream")
                    .var("stream", &f.stream)
                    .var("field", field)
                    .var("target", &p.shown),
            );
            continue;
        }
        let groups = c.get("/spec/consumers").map_or(&[][..], Node::as_seq);
        for (n, g) in groups.iter().enumerate() {
            let name = g.get("group").and_then(Node::as_str).unwrap_or_default();
            if f.consumers.iter().any(|cf| cf.name == name && !cf.exists) {
                sink.push(
                    c.report(RuleId::PR002, &format!("/spec/consumers/{n}/group"))
                        .variant("consumer")
                        .var("group", name)
                        .var("stream", &f.stream)
                        .var("target", &p.shown),
                );
            }
        }
    }
}
