//! CL063: the restored state was checked, not just the restore's exit code.
use super::common::{bool_at, node};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const VALIDATED: &str = "/spec/restore_drill/validated";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if node(c, "/spec/restore_drill/last_success").is_none() {
            continue;
        }
        if bool_at(c, VALIDATED) != Some(true) {
            let validated = bool_at(c, VALIDATED).map_or("not declared".into(), |b| b.to_string());
            sink.push(
                c.report(RuleId::CL063, VALIDATED)
                    .var("validated", validated),
            );
        }
    }
}
