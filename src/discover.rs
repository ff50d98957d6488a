//! Finding the input files: walk the given paths (respecting .gitignore, also
//! outside a git repository), apply the config's include/exclude globs, and
//! classify each file for its engine.
use crate::settings::{CONFIG_NAME, Settings};
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileClass {
    /// A YAML file: a contract when it carries `apiVersion: platcheck/…`.
    Yaml,
    Sql,
    Markdown,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub display: String,
    pub path: PathBuf,
    pub class: FileClass,
}

/// A path that could not be walked or read, reported as PC001.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkProblem {
    pub display: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<Candidate>,
    pub problems: Vec<WalkProblem>,
}

pub fn classify(path: &Path) -> Option<FileClass> {
    if path.file_name().is_some_and(|n| n == CONFIG_NAME) {
        return None;
    }
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "yaml" | "yml" => Some(FileClass::Yaml),
        "sql" => Some(FileClass::Sql),
        "md" | "markdown" => Some(FileClass::Markdown),
        _ => None,
    }
}

/// The path as reported: relative to `cwd` when below it, `/`-separated.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let rel = path.strip_prefix(cwd).unwrap_or(path);
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// Lexical normalisation (`a/./b/../c` -> `a/c`) without touching the disk:
/// paths may name files that do not exist yet, or exist only in git.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn globset(patterns: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).map_err(|e| format!("invalid glob `{p}`: {e}"))?);
        // `dir/**` should also match the directory's own files when written `dir`.
        if !p.contains('*')
            && let Ok(g) = Glob::new(&format!("{}/**", p.trim_end_matches('/')))
        {
            b.add(g);
        }
    }
    b.build().map_err(|e| e.to_string())
}

pub fn discover(paths: &[PathBuf], cwd: &Path, settings: &Settings) -> Result<Discovered, String> {
    let include = globset(&settings.include)?;
    let exclude = globset(&settings.exclude)?;
    let mut out = Discovered::default();
    for given in paths {
        let abs = if given.is_absolute() {
            given.clone()
        } else {
            cwd.join(given)
        };
        let meta = match std::fs::metadata(&abs) {
            Ok(m) => m,
            Err(e) => {
                out.problems.push(WalkProblem {
                    display: display_path(&abs, cwd),
                    reason: io_reason(&e),
                });
                continue;
            }
        };
        if !meta.is_dir() {
            // An explicitly named file is always checked when we know its kind.
            if let Some(class) = classify(&abs) {
                out.files.push(Candidate {
                    display: display_path(&abs, cwd),
                    path: abs,
                    class,
                });
            }
            continue;
        }
        let walker = ignore::WalkBuilder::new(&abs)
            .hidden(false)
            .follow_links(true)
            .require_git(false)
            .filter_entry(|e| e.file_name() != ".git")
            .build();
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    out.problems.push(walk_problem(&e, cwd));
                    continue;
                }
            };
            let path = entry.path();
            let Some(class) = classify(path) else {
                continue;
            };
            let Some(ft) = entry.file_type() else {
                continue;
            };
            if ft.is_dir() {
                continue;
            }
            let rel = path.strip_prefix(&settings.root).unwrap_or(path);
            if !settings.include.is_empty() && !include.is_match(rel) {
                continue;
            }
            if exclude.is_match(rel) {
                continue;
            }
            if !ft.is_file() {
                out.problems.push(WalkProblem {
                    display: display_path(path, cwd),
                    reason: "not a regular file (FIFO, socket or device); skipped".into(),
                });
                continue;
            }
            out.files.push(Candidate {
                display: display_path(path, cwd),
                path: path.to_path_buf(),
                class,
            });
        }
    }
    out.files.sort();
    out.files.dedup_by(|a, b| a.path == b.path);
    out.problems.sort();
    out.problems.dedup();
    Ok(out)
}

fn walk_problem(e: &ignore::Error, cwd: &Path) -> WalkProblem {
    fn find(e: &ignore::Error) -> (Option<PathBuf>, String) {
        match e {
            ignore::Error::WithPath { path, err } => (Some(path.clone()), find(err).1),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                find(err)
            }
            ignore::Error::Loop { ancestor, child } => (
                Some(child.clone()),
                format!(
                    "symlink loop: {} points back to {}",
                    child.display(),
                    ancestor.display()
                ),
            ),
            ignore::Error::Io(io) => (None, io_reason(io)),
            other => (None, other.to_string()),
        }
    }
    let (path, reason) = find(e);
    WalkProblem {
        display: path.map_or_else(|| "<walk>".into(), |p| display_path(&p, cwd)),
        reason,
    }
}

pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
