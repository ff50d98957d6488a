//! PR011: the declared replication mode (or a zero rpo) against whether the
//! server's commits wait for a standby.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::finding::Severity;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        let replication = c.get("/spec/ha/replication").and_then(Node::as_str);
        let rpo = c
            .get("/spec/ha/rpo")
            .and_then(Node::scalar_text)
            .and_then(|t| Duration::parse(&t).ok().map(|d| (t, d)));
        let report = |pointer: &str| {
            c.report(RuleId::PR011, pointer)
                .var("target", &p.shown)
                .var("detail", &f.sync_detail)
        };
        match replication {
            Some(r @ ("sync" | "mixed")) if !f.sync_replication => {
                sink.push(report("/spec/ha/replication").var("declared", r));
            }
            Some("async") if f.sync_replication => {
                sink.push(
                    report("/spec/ha/replication")
                        .variant("async")
                        .severity(Severity::Warning),
                );
            }
            // An rpo of zero without a declared mode is a claim about the server too.
            None if !f.sync_replication => {
                if let Some((text, d)) = rpo
                    && d.is_zero()
                {
                    sink.push(report("/spec/ha/rpo").variant("rpo").var("rpo", text));
                }
            }
            _ => {}
        }
    }
}
