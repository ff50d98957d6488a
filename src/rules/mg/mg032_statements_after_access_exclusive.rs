//! MG032: statements after an ACCESS EXCLUSIVE lock in the same transaction
//! keep that lock held until COMMIT.
use super::common::{self as c, BySize};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::locks::PgMode;
use crate::sql::ops::Name;
use std::collections::HashSet;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        let mut reported = HashSet::new();
        for st in &fa.stmts {
            let Some(tx) = st.tx else { continue };
            if reported.contains(&tx) {
                continue;
            }
            let held: Vec<&Name> = st
                .locks
                .iter()
                .filter(|(n, m)| *m == PgMode::AccessExclusive && !fa.is_new(n, st))
                .map(|(n, _)| n)
                .collect();
            if held.is_empty() {
                continue;
            }
            let later: Vec<&crate::sql::analysis::Stmt> = fa.stmts[st.index..]
                .iter()
                .take_while(|s| s.tx == Some(tx))
                .filter(|s| !s.op.as_ref().is_some_and(|o| o.is_transaction_control()))
                .collect();
            if later.is_empty() {
                continue;
            }
            reported.insert(tx);
            // An index's (or view's) size is its table's: judge the tables,
            // or every relation when the statement locks no table at all.
            let tables: Vec<&Name> = held
                .iter()
                .copied()
                .filter(|n| !st.secondary.contains(&n.name))
                .collect();
            let sized = if tables.is_empty() {
                held.clone()
            } else {
                tables
            };
            // The message names the first five; so does the editor.
            let named = &later[..later.len().min(5)];
            let lines: Vec<String> = named
                .iter()
                .map(|s| {
                    ctx.ws.files[fa.file]
                        .line_col(s.span.start)
                        .line
                        .to_string()
                })
                .collect();
            let more = if later.len() > 5 { ", …" } else { "" };
            let report = named
                .iter()
                .fold(c::report(ctx, RuleId::MG032, fa, st), |r, s| {
                    r.related(
                        fa.file,
                        c::head(ctx, fa, s),
                        "runs while the ACCESS EXCLUSIVE lock is held",
                    )
                });
            sink.push(
                report
                    .by_size(fa, &sized)
                    .var(
                        "tables",
                        held.iter()
                            .map(|n| c::describe(fa, n))
                            .chain(
                                c::certain_toast(st)
                                    .into_iter()
                                    .filter(|l| {
                                        l.mode == PgMode::AccessExclusive
                                            && !fa.is_new(&l.owner, st)
                                    })
                                    .map(|l| l.relation),
                            )
                            .collect::<Vec<_>>()
                            .join(", "),
                    )
                    .var("count", later.len())
                    .var("lines", format!("{}{more}", lines.join(", "))),
            );
        }
    }
}
