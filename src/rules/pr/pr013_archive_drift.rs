//! PR013: a continuous log archive in `backup.types` that the server does not run.
use super::databases;
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        let Some(types) = c.get("/spec/backup/types") else {
            continue;
        };
        let Some((i, kind)) = types
            .as_seq()
            .iter()
            .filter_map(Node::as_str)
            .enumerate()
            .find(|(_, t)| matches!(*t, "wal-archive" | "binlog-archive"))
        else {
            continue;
        };
        if !f.archive {
            sink.push(
                c.report(RuleId::PR013, &format!("/spec/backup/types/{i}"))
                    .var("kind", kind)
                    .var("target", &p.shown)
                    .var("detail", &f.archive_detail),
            );
        }
    }
}
