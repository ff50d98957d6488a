//! The facts of a run that only git knows: the revision the checked files
//! come from (and whether they differ from it), and who wrote each waiver
//! line. Read with the user's `git` command; outside a repository, or
//! without git, the report says so instead.
use crate::outcome::{Outcome, WaivedBy};
use crate::report::model::{Revision, RunFacts};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Everything the report header needs about this run. `paths` are the
/// paths the run checked (relative to `cwd`), for the dirty flag.
pub fn gather(outcome: &Outcome, paths: &[PathBuf], cwd: &Path) -> RunFacts {
    let mut facts = RunFacts::of(outcome);
    facts.revision_looked_up = true;
    facts.revision = revision(&outcome.root, paths, cwd);
    if facts.revision.is_none() {
        return facts;
    }
    let mut lines: Vec<(String, PathBuf, usize)> = Vec::new();
    for w in &outcome.waived {
        match &w.by {
            WaivedBy::Inline(i) => {
                let s = &outcome.suppressions[*i];
                let src = &outcome.files[s.file];
                lines.push((src.display.clone(), src.path.clone(), s.line));
            }
            WaivedBy::Baseline { file, line } => {
                if let Some(path) = &outcome.baseline {
                    lines.push((file.clone(), path.clone(), *line));
                }
            }
        }
    }
    for s in &outcome.suppressions {
        if matches!(s.defect, Some(("expired", _))) {
            let src = &outcome.files[s.file];
            lines.push((src.display.clone(), src.path.clone(), s.line));
        }
    }
    lines.sort();
    lines.dedup();
    for (display, path, line) in lines {
        let abs = if path.is_absolute() {
            path
        } else {
            cwd.join(path)
        };
        if let Some(who) = author(&abs, line) {
            facts.authors.insert((display, line), who);
        }
    }
    facts
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// HEAD of the repository holding `root`, and whether the checked paths
/// have uncommitted or untracked changes.
pub fn revision(root: &Path, paths: &[PathBuf], cwd: &Path) -> Option<Revision> {
    let commit = git(root, &["rev-parse", "--verify", "--quiet", "HEAD"])?
        .trim()
        .to_string();
    if commit.is_empty() {
        return None;
    }
    let mut args: Vec<String> = vec!["status".into(), "--porcelain".into(), "--".into()];
    if paths.is_empty() {
        args.push(".".into());
    }
    args.extend(paths.iter().map(|p| p.to_string_lossy().into_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let status = git(cwd, &args)?;
    Some(Revision {
        commit,
        dirty: !status.trim().is_empty(),
    })
}

/// `Name <mail>, YYYY-MM-DD` of the commit that last changed `line`;
/// `None` for a line not committed yet, or outside git.
pub fn author(file: &Path, line: usize) -> Option<String> {
    let dir = file.parent()?;
    let name = file.file_name()?.to_string_lossy().into_owned();
    let range = format!("{line},{line}");
    let out = git(dir, &["blame", "--porcelain", "-L", &range, "--", &name])?;
    let mut lines = out.lines();
    let commit = lines.next()?.split(' ').next()?;
    if commit.bytes().all(|b| b == b'0') {
        return None;
    }
    let (mut who, mut mail, mut time) = (None, None, None);
    for l in lines {
        if let Some(v) = l.strip_prefix("author ") {
            who = Some(v.to_string());
        } else if let Some(v) = l.strip_prefix("author-mail ") {
            mail = Some(v.to_string());
        } else if let Some(v) = l.strip_prefix("author-time ") {
            time = v.trim().parse::<i64>().ok();
        } else if l.starts_with('\t') {
            break;
        }
    }
    // The commit's day in UTC, from its Unix time.
    let date = time.and_then(|t| {
        let days = jiff::Span::new().try_days(t.div_euclid(86_400)).ok()?;
        jiff::civil::date(1970, 1, 1).checked_add(days).ok()
    });
    let mut text = who?;
    if let Some(m) = mail.filter(|m| m != "<>") {
        text.push(' ');
        text.push_str(&m);
    }
    if let Some(d) = date {
        text.push_str(", ");
        text.push_str(&d.to_string());
    }
    Some(text)
}
