//! MG021: TRUNCATE takes ACCESS EXCLUSIVE (and CASCADE reaches FK children).
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Name, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let cascade = matches!(st.op, Some(Op::Truncate { cascade: true, .. }));
            for e in st.effects.iter().filter(|e| e.key == "truncate") {
                let Some(t) = e.table.as_ref().filter(|_| c::existing(fa, st, e)) else {
                    continue;
                };
                let mut tables: Vec<&Name> = vec![t];
                tables.extend(e.other.iter());
                let reach = match (cascade, e.other.is_empty()) {
                    (false, _) => String::new(),
                    (true, true) => {
                        "; CASCADE also empties every table with a foreign key to it".into()
                    }
                    (true, false) => format!(
                        "; CASCADE also empties {}",
                        e.other
                            .iter()
                            .map(Name::display)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                let fix = format!(
                    "DELETE FROM {t} WHERE id IN (SELECT id FROM {t} LIMIT 10000); -- repeat until no row is left"
                );
                sink.push(
                    c::report(ctx, RuleId::MG021, fa, st)
                        .by_size(fa, &tables)
                        .var("table", c::describe(fa, t))
                        .var("cascade", reach)
                        .var("fix", fix),
                );
            }
        }
    }
}
