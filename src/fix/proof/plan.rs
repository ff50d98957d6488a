//! Which files `fix --verify` replays: every fixed file's history, in the
//! tool's order, up to its last fixed file.
use super::{Plan, PlanFile, PlanStmt};
use crate::registry::RuleCtx;
use crate::sql::analysis::{FileAnalysis, Role};
use crate::sql::history::flyway_runs_outside_transaction;
use crate::sql::{Dialect, lexer};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The replay plan for the files `fixed` (written by the fix): each one's
/// history (its dumps, then its steps in the tool's order) up to its last
/// fixed file.
pub fn plan(ctx: &RuleCtx, fixed: &BTreeSet<PathBuf>) -> Plan {
    plan_of(ctx, fixed, |d| d == Dialect::Postgres)
}

/// As `plan`, for the fixed MySQL and MariaDB files (`mariadb::run`).
pub fn plan_mysql(ctx: &RuleCtx, fixed: &BTreeSet<PathBuf>) -> Plan {
    plan_of(ctx, fixed, Dialect::is_mysql)
}

fn plan_of(ctx: &RuleCtx, fixed: &BTreeSet<PathBuf>, want: fn(Dialect) -> bool) -> Plan {
    let analysis = ctx.sql();
    let norm = |p: &Path| crate::source::normalize(p);
    let fixed: BTreeSet<PathBuf> = fixed.iter().map(|p| norm(p)).collect();
    let ups: BTreeMap<usize, &FileAnalysis> = analysis
        .files
        .iter()
        .filter(|fa| matches!(fa.role, Role::Up) && want(fa.ctx.dialect))
        .map(|fa| (fa.file, fa))
        .collect();
    let hist = crate::sql::history::plan(ctx.ws, ctx.settings);
    let mut histories = Vec::new();
    for groups in hist.groups.chunk_by(|a, b| a.history == b.history) {
        let mut files: Vec<PlanFile> = Vec::new();
        for u in groups.iter().flat_map(|g| &g.baseline) {
            let src = &ctx.ws.files[u.file];
            let (_, text) = u.window(&src.text);
            files.push(PlanFile {
                name: src.display.clone(),
                stmts: vec![PlanStmt {
                    line: 1,
                    text: text.into_owned(),
                    in_tx: false,
                    outside_only: false,
                }],
                judged: false,
            });
        }
        for step in groups.iter().flat_map(|g| &g.steps) {
            let Some(fa) = ups.get(&step.up.file) else {
                continue;
            };
            let judged = fixed.contains(&norm(&ctx.ws.files[fa.file].path));
            files.push(plan_file(ctx, fa, judged));
        }
        if let Some(last) = files.iter().rposition(|f| f.judged) {
            files.truncate(last + 1);
            histories.push(files);
        }
    }
    Plan { histories }
}

fn plan_file(ctx: &RuleCtx, fa: &FileAnalysis, judged: bool) -> PlanFile {
    let src = &ctx.ws.files[fa.file];
    let stmts = fa
        .stmts
        .iter()
        .map(|st| {
            let text = src.text[st.span.start..st.span.end].to_string();
            let toks = lexer::tokens(&text, fa.ctx.dialect, 64);
            PlanStmt {
                line: src.line_col(st.span.start).line,
                outside_only: flyway_runs_outside_transaction(&text, &toks),
                in_tx: st.tx.is_some(),
                text,
            }
        })
        .collect();
    PlanFile {
        name: src.display.clone(),
        stmts,
        judged,
    }
}
