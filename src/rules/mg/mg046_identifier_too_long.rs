//! MG046: identifiers longer than 63 bytes, which PostgreSQL silently truncates.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

const MAX: usize = 63;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::pg_files(ctx) {
        for st in &fa.stmts {
            let mut names: Vec<&str> = Vec::new();
            match &st.op {
                Some(Op::CreateTable {
                    name,
                    columns,
                    constraints,
                    ..
                }) => {
                    names.push(&name.name);
                    names.extend(columns.iter().map(|c| c.name.as_str()));
                    names.extend(constraints.iter().filter_map(|c| c.name.as_deref()));
                }
                Some(Op::CreateIndex { name: Some(n), .. }) => names.push(n),
                Some(Op::AlterTable { actions, .. }) => {
                    for a in actions {
                        match a {
                            Alter::AddColumn { col, .. } => names.push(&col.name),
                            Alter::AddConstraint(con) => names.extend(con.name.as_deref()),
                            Alter::RenameColumn { to, .. } => names.push(to),
                            Alter::RenameTo(to) => names.push(&to.name),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            for n in names.into_iter().filter(|n| n.len() > MAX) {
                let cut = n
                    .char_indices()
                    .take_while(|(i, ch)| i + ch.len_utf8() <= MAX)
                    .last()
                    .map_or(0, |(i, ch)| i + ch.len_utf8());
                sink.push(
                    c::report(ctx, RuleId::MG046, fa, st)
                        .var("name", n)
                        .var("bytes", n.len())
                        .var("truncated", &n[..cut]),
                );
            }
        }
    }
}
