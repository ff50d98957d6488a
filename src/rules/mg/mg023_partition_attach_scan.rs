//! MG023: CREATE TABLE … PARTITION OF, or ATTACH PARTITION without a
//! validated CHECK that proves the partition bound.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            for e in &st.effects {
                let variant = match e.key {
                    "create_table_partition_of" => "partition_of",
                    "attach_partition" if !e.covered => "attach",
                    _ => continue,
                };
                let Some(parent) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let part = e.other.first().map_or(e.detail.clone(), |p| p.display());
                sink.push(
                    c::report(ctx, RuleId::MG023, fa, st)
                        .variant(variant)
                        .var("parent", c::describe(fa, parent))
                        .var("partition", &part)
                        .var("locks", c::locks_text(fa, st)),
                );
            }
        }
    }
}
