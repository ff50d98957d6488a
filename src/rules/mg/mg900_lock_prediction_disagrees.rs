//! MG900 offline: a recorded `platcheck verify` run (`observed.json` beside
//! the migration files) compared with today's prediction. The live form of
//! this rule is `platcheck verify` itself; both use `sql::verify::compare`.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::sql::analysis::{FileAnalysis, Stmt};
use crate::sql::verify::{Run, StmtReport, command::read_recording, compare, render};
use std::collections::HashMap;
use std::path::PathBuf;

/// The recording's file name, next to the migrations it observed.
pub const RECORDING: &str = "observed.json";

/// A refused statement needs a different remedy than a wrong table row.
const REFUSED_HELP: &str = "make the statement run on a fresh server (the message says why it did not: a missing extension, object or earlier migration), then record again with `platcheck verify --save observed.json`";

/// Every statement of a migration file with a recording beside it that
/// recorded it (matched by file name and statement text), with that record.
pub(super) fn recorded<'a>(
    ctx: &RuleCtx<'a>,
    mut each: impl FnMut(&'a FileAnalysis, &'a Stmt, &StmtReport, &Run),
) {
    let mut recordings: HashMap<PathBuf, Option<Run>> = HashMap::new();
    // `verify` replays the forward steps the history model says the tool
    // runs, so only those scripts have recorded statements; a down script
    // of the same file (a dbmate or goose section) numbers its own.
    for fa in c::analysis(ctx)
        .files
        .iter()
        .filter(|fa| fa.role == crate::sql::analysis::Role::Up)
    {
        let path = &ctx.ws.files[fa.file].path;
        let Some(dir) = path.parent() else { continue };
        // An unreadable recording is not this rule's to judge: with no
        // usable observation there is nothing to disagree with.
        let Some(run) = recordings
            .entry(dir.to_path_buf())
            .or_insert_with(|| {
                let rec = dir.join(RECORDING);
                // Like every input: a link out of the repository is not
                // followed (nor is a FIFO or device opened).
                let regular = std::fs::symlink_metadata(&rec).is_ok_and(|m| {
                    m.is_file() || (m.is_symlink() && ctx.settings.scope.check(&rec).is_ok())
                });
                regular.then(|| read_recording(&rec).ok()).flatten()
            })
            .as_ref()
        else {
            continue;
        };
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_string()) else {
            continue;
        };
        for st in &fa.stmts {
            // The record of this statement: same file, same statement text
            // (a statement inserted before it, or this one rewritten, must
            // not make it be judged by another's observation), nearest in
            // position when the text repeats.
            let head = head_line(c::text(ctx, fa, st));
            if let Some(rec) = run
                .statements
                .iter()
                .filter(|r| {
                    r.file.rsplit(['/', '\\']).next() == Some(name.as_str())
                        && head_line(&r.statement) == head
                })
                .min_by_key(|r| r.index.abs_diff(st.index))
            {
                each(fa, st, rec, run);
            }
        }
    }
}

/// The statement's first line, shortened like a recording's: the key a
/// statement is matched by. Any line ending ends it (a lone CR too): the
/// recording's `statement` may come from the file with other line endings
/// than it has now, and a recorded head cut at LF only runs on past a CR.
fn head_line(text: &str) -> String {
    crate::sql::verify::head(text.split(['\r', '\n']).next().unwrap_or_default())
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    recorded(ctx, |fa, st, rec, run| {
        let server = render::server_label(run);
        let predicted = crate::sql::verify::predict(st);
        let detail = compare::compare(&predicted, &rec.observed);
        if detail.is_empty() {
            return;
        }
        let mut report = c::report(ctx, RuleId::MG900, fa, st)
            .var("sql", head_line(c::text(ctx, fa, st)))
            .var("predicted", compare::predicted_text(&predicted))
            .var("observed", compare::observed_text(&rec.observed))
            .var("server", &server)
            .var("detail", detail.join("; "));
        if rec.observed.error.is_some() {
            report = report.variant("refused").help(REFUSED_HELP);
        }
        sink.push(report);
    });
}
