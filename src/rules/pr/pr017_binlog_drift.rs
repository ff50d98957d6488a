//! PR017: a MariaDB/MySQL cluster that declares replication or a binlog
//! archive, on a server that logs statements or has no GTIDs.
use super::databases;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for (c, p, f) in databases(ctx) {
        let Some(binlog) = &f.binlog else { continue };
        let archive = c.get("/spec/backup/types").and_then(|t| {
            t.as_seq()
                .iter()
                .position(|n| n.as_str() == Some("binlog-archive"))
        });
        let (pointer, field) = match (c.get("/spec/ha/replication"), archive) {
            (Some(_), _) => ("/spec/ha/replication".to_string(), "ha.replication"),
            (None, Some(i)) => (format!("/spec/backup/types/{i}"), "a binlog-archive backup"),
            (None, None) => continue,
        };
        if !binlog.format.eq_ignore_ascii_case("ROW") {
            sink.push(
                c.report(RuleId::PR017, &pointer)
                    .var("target", &p.shown)
                    .var("format", &binlog.format)
                    .var("field", field),
            );
        }
        if !binlog.gtid {
            sink.push(
                c.report(RuleId::PR017, &pointer)
                    .variant("gtid")
                    .var("target", &p.shown)
                    .var("detail", &binlog.gtid_detail)
                    .var("field", field),
            );
        }
    }
}
