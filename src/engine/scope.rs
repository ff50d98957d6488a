//! Named paths inside a larger workspace: a pre-commit hook, an action's
//! `paths:` or one file on the command line still loads the whole
//! repository from the config's directory, so cross-file rules, the
//! clusters' table sizes and the migration history see everything; only
//! the findings are limited to what was named.
use crate::finding::Severity;
use crate::outcome::Outcome;
use crate::settings::Settings;
use crate::source::{SourceFile, normalize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The paths to walk, and the named paths to report on (`None`: everything
/// walked). Without a config there is no repository root to widen to.
pub fn plan(
    paths: &[PathBuf],
    cwd: &Path,
    settings: &Settings,
) -> (Vec<PathBuf>, Option<Vec<PathBuf>>) {
    if settings.config.is_none() {
        return (paths.to_vec(), None);
    }
    let root = normalize(&absolute(&settings.root, cwd));
    let named: Vec<PathBuf> = paths.iter().map(|p| normalize(&absolute(p, cwd))).collect();
    if named.iter().any(|p| root.starts_with(p)) {
        // The root itself (or a directory above it) was named: nothing to narrow.
        return (paths.to_vec(), None);
    }
    let mut walk = vec![root.clone()];
    // An explicitly named file is checked even when the globs leave it out,
    // and a path outside the root is walked as given.
    walk.extend(
        named
            .iter()
            .filter(|p| !p.starts_with(&root) || !p.is_dir())
            .cloned(),
    );
    (walk, Some(named))
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

/// Which files of the workspace (by index) a scoped run reports on: the
/// named ones, and the config file (its problems concern the run). The
/// engine drops the other files' reports before fixes, rendering and the
/// suppression scan, which a one-file run would otherwise spend on the
/// whole repository only for `restrict` to throw the results away.
pub fn shown(
    files: &[SourceFile],
    named: &[PathBuf],
    cwd: &Path,
    config: Option<&str>,
) -> Vec<bool> {
    files
        .iter()
        .map(|f| {
            within(named, &f.path, cwd)
                || within(named, Path::new(&f.display), cwd)
                || config == Some(f.display.as_str())
        })
        .collect()
}

fn within(named: &[PathBuf], path: &Path, cwd: &Path) -> bool {
    let p = normalize(&absolute(path, cwd));
    named.iter().any(|n| p.starts_with(n))
}

/// Keeps the findings and waivers of the named files. The
/// config file's own problems, the baseline's stale-entry notice and
/// internal errors stay: they concern the run.
pub fn restrict(outcome: &mut Outcome, named: &[PathBuf], cwd: &Path) {
    let within = |path: &Path| within(named, path, cwd);
    let mut shown: BTreeSet<String> = BTreeSet::new();
    let mut files = 0;
    for (i, f) in outcome.files.iter().enumerate() {
        if within(&f.path) || within(Path::new(&f.display)) {
            shown.insert(f.display.clone());
            files += usize::from(outcome.classes[i].is_some());
        }
    }
    if let Some(c) = &outcome.config {
        shown.insert(c.clone());
    }
    // A stale-entry notice (PC011) points into the baseline; it counts only
    // the named files' entries (`baseline::apply`), so it concerns them.
    if let Some(b) = &outcome.baseline {
        shown.insert(crate::source::display_path(b, cwd));
    }
    outcome
        .findings
        .retain(|f| f.rule == crate::RuleId::PC000 || shown.contains(&f.file));
    outcome.waived.retain(|w| shown.contains(&w.finding.file));
    // Suppressions stay: waivers point into that list by position; the
    // `suppressions` listing reads `scope`.
    let mut summary = crate::outcome::Summary {
        files,
        suppressed: outcome.waived.len(),
        ..Default::default()
    };
    for f in &outcome.findings {
        match f.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
    }
    outcome.summary = summary;
    outcome.scope = Some(shown);
}

/// Named directories inside the root of which the walk checked no file
/// (the config's `include`/`exclude` leave all of them out, or none is an
/// input): each gets a PC017 line, as a named file that is not checked
/// does, instead of a silent "0 files checked".
pub fn empty_named_dirs(
    named: &[PathBuf],
    root: &Path,
    found: &crate::discover::Discovered,
    cwd: &Path,
) -> Vec<crate::discover::WalkProblem> {
    let root = normalize(&absolute(root, cwd));
    let walked: Vec<PathBuf> = found
        .files
        .iter()
        .map(|c| normalize(&absolute(&c.path, cwd)))
        .collect();
    named
        .iter()
        .filter(|d| d.starts_with(&root) && d.is_dir())
        .filter(|d| !walked.iter().any(|f| f.starts_with(d)))
        .map(|d| crate::discover::WalkProblem {
            display: crate::source::display_path(d, cwd),
            reason: "no file under this directory is checked: the config's include/exclude leave out every one (or none is a contract, migration or document)".into(),
        })
        .collect()
}
