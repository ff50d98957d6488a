//! PR002: a table the contract names does not exist on the probed database.
use super::databases;
use crate::catalog::RuleId;
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
}
