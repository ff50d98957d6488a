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
    let within = Within::new(named, cwd);
    files
        .iter()
        .map(|f| {
            within.holds(&f.path)
                || within.holds(Path::new(&f.display))
                || config == Some(f.display.as_str())
        })
        .collect()
}

/// Whether a path, made absolute against `cwd` and normalised, lies under
/// a named path. Asked twice per file of the repository in a one-file run:
/// a path without `.` or `..` (nearly every one) is compared as it is,
/// without building its absolute form.
struct Within<'a> {
    named: &'a [PathBuf],
    cwd: PathBuf,
    /// Per named path, the part below `cwd` (`None`: not below it).
    below_cwd: Vec<Option<&'a Path>>,
}

impl<'a> Within<'a> {
    fn new(named: &'a [PathBuf], cwd: &Path) -> Within<'a> {
        let cwd = normalize(cwd);
        let below_cwd = named.iter().map(|n| n.strip_prefix(&cwd).ok()).collect();
        Within {
            named,
            cwd,
            below_cwd,
        }
    }

    fn holds(&self, path: &Path) -> bool {
        use std::path::Component;
        let plain = path.components().all(|c| {
            matches!(
                c,
                Component::Normal(_) | Component::RootDir | Component::Prefix(_)
            )
        });
        if !plain || !self.cwd.is_absolute() {
            let p = normalize(&absolute(path, &self.cwd));
            return self.named.iter().any(|n| p.starts_with(n));
        }
        if path.is_absolute() {
            return self.named.iter().any(|n| path.starts_with(n));
        }
        // `cwd/path` lies under `n` when `n` is `cwd` or above it, or when
        // `path` starts with what `n` adds below `cwd`.
        self.named
            .iter()
            .zip(&self.below_cwd)
            .any(|(n, below)| match below {
                Some(rest) => path.starts_with(rest),
                None => self.cwd.starts_with(n),
            })
    }
}

/// Keeps the findings and waivers of the named files. The
/// config file's own problems, the baseline's stale-entry notice and
/// internal errors stay: they concern the run.
pub fn restrict(outcome: &mut Outcome, named: &[PathBuf], cwd: &Path) {
    let matcher = Within::new(named, cwd);
    let within = |path: &Path| matcher.holds(path);
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
    if !named.iter().any(|d| d.starts_with(&root) && d.is_dir()) {
        return Vec::new();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_agrees_with_the_normalised_absolute_path() {
        let named: Vec<PathBuf> = ["/repo/migrations/a.sql", "/repo/contracts", "/elsewhere/x"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let paths = [
            "migrations/a.sql",
            "migrations/b.sql",
            "./migrations/a.sql",
            "x/../migrations/a.sql",
            "contracts/c.yaml",
            "contracts",
            "contractsx/c.yaml",
            "/repo/contracts/d.yaml",
            "/repo/./contracts/d.yaml",
            "/elsewhere/x/y",
            "../elsewhere/x",
            "../repo/contracts/e.yaml",
            "",
        ];
        for cwd in [
            "/repo",
            "/repo/",
            "/repo/contracts",
            "/",
            "/other",
            "/repo/./sub/..",
        ] {
            let cwd = Path::new(cwd);
            let w = Within::new(&named, cwd);
            for p in paths {
                let p = Path::new(p);
                let want = {
                    let abs = normalize(&absolute(p, cwd));
                    named.iter().any(|n| abs.starts_with(n))
                };
                assert_eq!(w.holds(p), want, "{} in {}", p.display(), cwd.display());
            }
        }
    }
}
