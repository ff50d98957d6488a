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
                // The other relations are the tables CASCADE reaches and
                // the indexes emptied with each table (`secondary`).
                let reached: Vec<&Name> = e
                    .other
                    .iter()
                    .filter(|n| !st.secondary().contains(&n.name))
                    .collect();
                let mut tables: Vec<&Name> = vec![t];
                tables.extend(reached.iter().copied());
                let reach = match (cascade, reached.is_empty()) {
                    (false, _) => String::new(),
                    (true, true) => {
                        "; CASCADE also empties every table with a foreign key to it".into()
                    }
                    (true, false) => format!(
                        "; CASCADE also empties {}",
                        reached
                            .iter()
                            .map(|n| n.display())
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
