//! PR mode: the files changed since a git ref (committed, staged, unstaged
//! and untracked), so findings can be limited to them while cross-file rules
//! still see the whole repository.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// Absolute paths of the files changed since `base`.
pub fn since(base: &str, cwd: &Path) -> Result<BTreeSet<PathBuf>, String> {
    let top = git(cwd, &["rev-parse", "--show-toplevel"])
        .map_err(|e| format!("--changed-since needs a git repository: {e}"))?;
    let top = PathBuf::from(top.trim());
    git(
        cwd,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{base}^{{commit}}"),
        ],
    )
    .map_err(|_| format!("--changed-since {base}: no such commit or ref"))?;
    let mut files = BTreeSet::new();
    for args in [
        vec!["diff", "--name-only", "-z", "--no-renames", base],
        vec!["ls-files", "--others", "--exclude-standard", "-z"],
    ] {
        for name in git(&top, &args)?.split('\0').filter(|s| !s.is_empty()) {
            files.insert(top.join(name));
        }
    }
    Ok(files)
}
