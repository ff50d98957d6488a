//! CL051: backups live outside the primary region.
use super::common::str_at;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const AT: &str = "/spec/backup/location/region";

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_clusters() {
        if let (Some(primary), Some(backup)) = (str_at(c, "/spec/region"), str_at(c, AT))
            && primary == backup
        {
            sink.push(c.report(RuleId::CL051, AT).var("region", backup));
        }
    }
}
