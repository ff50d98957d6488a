//! CL050: the backup strategy is declared in full.
use super::common::{missing, node, under};
use crate::catalog::RuleId;
use crate::contracts::yaml::Value;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let required = under(
        "/spec/backup",
        &[
            "types",
            "frequency",
            "retention",
            "location/region",
            "encrypted",
            "rpo",
        ],
    );
    for c in ctx.ws.judged_clusters() {
        for r in missing(c, RuleId::CL050, &required) {
            sink.push(r);
        }
        // `types: []` declares no backup at all.
        if node(c, "/spec/backup/types")
            .is_some_and(|n| matches!(&n.value, Value::Seq(v) if v.is_empty()))
        {
            sink.push(
                c.report(RuleId::CL050, "/spec/backup/types")
                    .var("missing", "`backup.types` (the list is empty)"),
            );
        }
    }
}
