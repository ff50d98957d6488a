//! MG045: DDL without IF [NOT] EXISTS where migrations must be re-runnable
//! (`sql.require_idempotent: true`).
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::ops::{Alter, Op};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::analysis(ctx)
        .files
        .iter()
        .filter(|f| f.ctx.require_idempotent)
    {
        let repeatable = ctx.ws.files[fa.file]
            .path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("R__"));
        let why = if repeatable {
            "a Flyway repeatable migration is re-applied whenever it changes"
        } else {
            "sql.require_idempotent: true"
        };
        for st in &fa.stmts {
            let mut missing: Vec<&str> = Vec::new();
            match &st.op {
                Some(Op::CreateTable {
                    if_not_exists: false,
                    ..
                })
                | Some(Op::CreateIndex {
                    if_not_exists: false,
                    ..
                }) => missing.push("IF NOT EXISTS"),
                Some(Op::DropTable {
                    if_exists: false, ..
                })
                | Some(Op::DropIndex {
                    if_exists: false, ..
                }) => missing.push("IF EXISTS"),
                Some(Op::AlterTable { actions, .. }) => {
                    for a in actions {
                        match a {
                            Alter::AddColumn {
                                if_not_exists: false,
                                ..
                            } => missing.push("IF NOT EXISTS"),
                            Alter::DropColumn {
                                if_exists: false, ..
                            } => missing.push("IF EXISTS"),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            if let Some(guard) = missing.first() {
                sink.push(
                    c::report(ctx, RuleId::MG045, fa, st)
                        .var("kind", &st.kind)
                        .var("guard", guard)
                        .var("why", why),
                );
            }
        }
    }
}
