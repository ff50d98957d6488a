//! Earlier versions of a schema file, read with the `git` command (no
//! libgit2: the user's git, config and credentials are the ones that apply).
use std::path::{Path, PathBuf};
use std::process::Command;

/// A repository and the resolved base commit.
#[derive(Debug, Clone)]
pub struct Repo {
    dir: PathBuf,
    /// The ref as the user wrote it, for messages.
    pub name: String,
    /// The full commit id it resolved to when the run started.
    pub commit: String,
}

/// One earlier version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub commit: String,
    pub text: String,
}

fn git(dir: &Path, args: &[&str]) -> Result<std::process::Output, String> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("--base needs the `git` command, which could not be run: {e}"))
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl Repo {
    /// Checks that `dir` is inside a git work tree and that `reference`
    /// names a commit there. The error is a usage message (exit 2).
    pub fn open(dir: &Path, reference: &str) -> Result<Repo, String> {
        if reference.is_empty() || reference.starts_with('-') {
            return Err(format!("--base `{reference}` is not a git revision"));
        }
        let top = git(dir, &["rev-parse", "--show-toplevel"])?;
        if !top.status.success() {
            return Err(format!(
                "--base needs a git repository, but {} is not inside one",
                dir.display()
            ));
        }
        let spec = format!("{reference}^{{commit}}");
        let rev = git(
            dir,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &spec,
            ],
        )?;
        if !rev.status.success() {
            return Err(format!(
                "--base {reference}: no such revision in the git repository at {}",
                stdout(&top).trim()
            ));
        }
        Ok(Repo {
            dir: dir.to_path_buf(),
            name: reference.to_string(),
            commit: stdout(&rev).trim().to_string(),
        })
    }

    /// The file at the base commit; `None` when it did not exist there (a
    /// new schema). `rel` is relative to the directory the repo was opened in.
    pub fn show(&self, rel: &str) -> Option<String> {
        let spec = format!("{}:./{}", self.commit, rel.trim_start_matches("./"));
        let out = git(&self.dir, &["cat-file", "blob", &spec]).ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Every distinct version of the file in the history reachable from the
    /// base commit, newest first, following renames.
    pub fn history(&self, rel: &str) -> Vec<Version> {
        let rel = rel.trim_start_matches("./");
        let Ok(log) = git(
            &self.dir,
            &[
                "log",
                "--format=%x01%H",
                "--name-only",
                "--follow",
                &self.commit,
                "--",
                rel,
            ],
        ) else {
            return Vec::new();
        };
        let mut out: Vec<Version> = Vec::new();
        for entry in stdout(&log).split('\u{1}').skip(1) {
            let mut lines = entry.lines().filter(|l| !l.trim().is_empty());
            let (Some(commit), Some(path)) = (lines.next(), lines.next()) else {
                continue;
            };
            // Paths from `git log` are relative to the top level.
            let spec = format!("{commit}:{path}");
            let Ok(blob) = git(&self.dir, &["cat-file", "blob", &spec]) else {
                continue;
            };
            if !blob.status.success() {
                continue; // the commit deleted the file
            }
            let text = String::from_utf8_lossy(&blob.stdout).into_owned();
            if !out.iter().any(|v| v.text == text) {
                out.push(Version {
                    commit: commit.to_string(),
                    text,
                });
            }
        }
        out
    }
}
