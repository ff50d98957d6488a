//! After suppressions: the baseline hides the findings it lists (and
//! reports itself when stale), and `--changed-since` keeps the findings
//! of the files a change touched.
use super::{RunError, finish::render};
use crate::finding::Finding;
use crate::outcome::{Waived, WaivedBy};
use crate::settings::Settings;
use crate::workspace::Workspace;
use std::path::{Path, PathBuf};

/// The baseline's entries move from `findings` to `waived`. In a run
/// limited to the `shown` files only their entries can be stale: the rules
/// did not look at the others.
pub(super) fn baseline(
    settings: &Settings,
    cwd: &Path,
    ws: &mut Workspace,
    (findings, waived): (&mut Vec<Finding>, &mut Vec<Waived>),
    shown: Option<&[bool]>,
) -> Result<(), RunError> {
    if let Some(path) = settings.baseline.clone() {
        let (baseline, text) =
            crate::baseline::read(&path, &settings.scope).map_err(RunError::Usage)?;
        let display = crate::source::display_path(&path, cwd);
        let (hidden, stale) = crate::baseline::apply(
            findings,
            ws,
            &baseline,
            &settings.root,
            (&display, &path, &text),
            shown,
        );
        waived.extend(hidden.into_iter().map(|(finding, print)| {
            let line = baseline_line(&text, &print);
            Waived {
                finding,
                by: WaivedBy::Baseline {
                    file: display.clone(),
                    line,
                },
            }
        }));
        if let Some(r) = stale
            && let Some(severity) = settings.severity(r.rule)
        {
            findings.push(render(ws, r, severity));
            findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }
    Ok(())
}

/// Only the findings in files changed since `settings.changed_since`.
pub(super) fn changed_only(
    settings: &Settings,
    cwd: &Path,
    ws: &Workspace,
    findings: &mut Vec<Finding>,
) -> Result<(), RunError> {
    if let Some(base) = &settings.changed_since {
        let changed = crate::changed::since(base, cwd).map_err(RunError::Usage)?;
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let changed: std::collections::BTreeSet<PathBuf> =
            changed.iter().map(|p| canonical(p)).collect();
        let in_pr: std::collections::BTreeSet<&str> = ws
            .files
            .iter()
            .filter(|s| changed.contains(&canonical(&s.path)))
            .map(|s| s.display.as_str())
            .collect();
        findings.retain(|f| in_pr.contains(f.file.as_str()));
    }
    Ok(())
}

/// The line of a baseline entry (its `fingerprint` key), for the report.
fn baseline_line(text: &str, print: &str) -> usize {
    let needle = format!("\"{print}\"");
    text.lines()
        .position(|l| l.contains("\"fingerprint\"") && l.contains(&needle))
        .map_or(1, |i| i + 1)
}
