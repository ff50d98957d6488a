//! The steps of a run outside loading and the rules that still read user
//! input: a panic in them becomes a PC000 finding, never a crash.
use super::RunError;
use super::loading::panic_text;
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::settings::Settings;
use crate::source::{SourceFile, Span};
use crate::workspace::Workspace;
use std::path::Path;

/// `compat::prepare` (reading the payload schemas), isolated.
pub(super) fn prepare(
    ws: &mut Workspace,
    settings: &Settings,
    cwd: &Path,
    sink: &mut Sink,
) -> Result<(), RunError> {
    let prepared = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut local = Sink::default();
        crate::compat::prepare(ws, settings, cwd, &mut local).map(|()| local)
    }));
    match prepared {
        Ok(Ok(mut local)) => {
            sink.reports.append(&mut local.reports);
            sink.notes.append(&mut local.notes);
        }
        Ok(Err(e)) => return Err(RunError::Usage(e.0)),
        Err(payload) => {
            let file = run_file(ws);
            sink.push(Report::new(RuleId::PC000, file, Span::empty(0)).var(
                "detail",
                format!("while reading payload schemas: {}", panic_text(&payload)),
            ));
        }
    }
    Ok(())
}

/// A file for findings about the run itself when no input is at hand
/// (a rule that fails on an empty workspace must still be reported).
pub(super) fn run_file(ws: &mut Workspace) -> usize {
    if ws.files.is_empty() {
        ws.add_file(SourceFile::new("<run>", "<run>", ""), None)
    } else {
        0
    }
}

/// Fault injection for the isolation tests: `PLATCHECK_INJECT_PANIC` set to
/// `rule:<ID>` makes that rule panic.
pub(super) fn inject_rule_panic(id: RuleId) {
    if let Some(v) = std::env::var_os("PLATCHECK_INJECT_PANIC")
        && v.to_string_lossy().strip_prefix("rule:") == Some(id.as_str())
    {
        panic!("injected by PLATCHECK_INJECT_PANIC in rule {id}");
    }
}
