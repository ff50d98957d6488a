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
    if is_migration_input(path) {
        return Some(FileClass::Sql);
    }
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "yaml" | "yml" => Some(FileClass::Yaml),
        "sql" => Some(FileClass::Sql),
        "md" | "markdown" => Some(FileClass::Markdown),
        _ => None,
    }
}

/// Migration inputs beyond `*.sql`: SQL under a dialect suffix
/// (Synapse's `x.sql.postgres`, `x.sql.sqlite`; the history maps each to
/// its dialect or skips it with a reason), and the files migration tools
/// read beside the SQL (`sqitch.plan`, Flyway's `V1__x.sql.conf` and
/// `flyway.conf`/`flyway.toml`, diesel's `metadata.toml` next to an `up.sql`).
fn is_migration_input(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if matches!(name, "sqitch.plan" | "flyway.conf" | "flyway.toml") || name.ends_with(".sql.conf")
    {
        return true;
    }
    if name == "metadata.toml" {
        return path.with_file_name("up.sql").is_file();
    }
    name.rsplit_once('.').is_some_and(|(stem, suffix)| {
        stem.to_ascii_lowercase().ends_with(".sql")
            && matches!(
                suffix.to_ascii_lowercase().as_str(),
                "postgres" | "postgresql" | "pg" | "sqlite" | "sqlite3" | "mysql" | "mariadb"
            )
    })
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
            // An explicitly named file is always checked when we know its kind,
            // but a FIFO or device is never opened: reading one can block forever.
            let Some(class) = classify(&abs) else {
                continue;
            };
            if !meta.is_file() {
                out.problems.push(WalkProblem {
                    display: display_path(&abs, cwd),
                    reason: not_regular(&meta.file_type()),
                });
            } else {
                out.files.push(Candidate {
                    display: display_path(&abs, cwd),
                    path: abs,
                    class,
                });
            }
            continue;
        }
        // The walker reads the ignore files of the root and its parents
        // before any filter runs: one that is a FIFO would block it forever.
        if let Some(p) = abs
            .ancestors()
            .find_map(|dir| special_ignore_file(dir, cwd))
        {
            out.problems.push(p);
            continue;
        }
        let skipped = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let skipped_in_filter = skipped.clone();
        let cwd_in_filter = cwd.to_path_buf();
        let walker = ignore::WalkBuilder::new(&abs)
            .hidden(false)
            .follow_links(true)
            .require_git(false)
            .filter_entry(move |e| {
                if e.file_name() == ".git" {
                    return false;
                }
                if !e.file_type().is_some_and(|t| t.is_dir()) {
                    return true;
                }
                match special_ignore_file(e.path(), &cwd_in_filter) {
                    Some(p) => {
                        if let Ok(mut v) = skipped_in_filter.lock() {
                            v.push(p);
                        }
                        false
                    }
                    None => true,
                }
            })
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
                    reason: not_regular(&ft),
                });
                continue;
            }
            out.files.push(Candidate {
                display: display_path(path, cwd),
                path: path.to_path_buf(),
                class,
            });
        }
        if let Ok(mut v) = skipped.lock() {
            out.problems.append(&mut v);
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
    // The walker wraps the OS error in one that repeats the path, which the
    // finding names already: word the OS error alone.
    let os = os_error(e);
    let e = os.as_ref().unwrap_or(e);
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return "symlink loop (too many levels of symbolic links)".into();
    }
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// The OS error at the bottom of an error chain, if any.
fn os_error(e: &std::io::Error) -> Option<std::io::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(code) = err
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
        {
            return Some(std::io::Error::from_raw_os_error(code));
        }
        cur = err.source();
    }
    None
}

/// Ignore files the walker opens in each directory it enters.
const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".git/info/exclude"];

/// An ignore file in `dir` that is a FIFO, socket or device: the directory
/// is not walked, since the walker would block opening it.
fn special_ignore_file(dir: &Path, cwd: &Path) -> Option<WalkProblem> {
    IGNORE_FILES.iter().find_map(|name| {
        let p = dir.join(name);
        let meta = std::fs::metadata(&p).ok()?;
        (!meta.is_file() && !meta.is_dir()).then(|| WalkProblem {
            display: display_path(&p, cwd),
            reason: format!(
                "{} is not a regular file; the directory {} is not walked, since reading its ignore rules would block",
                file_kind(&meta.file_type()),
                display_path(dir, cwd)
            ),
        })
    })
}

/// Why a path that is not a regular file is skipped, naming what it is.
pub fn not_regular(ft: &std::fs::FileType) -> String {
    format!("{} is not a regular file; skipped", file_kind(ft))
}

fn file_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
    }
    if ft.is_dir() { "a directory" } else { "this" }
}

/// Reads an input file, refusing anything that is not a regular file or is
/// larger than `max` bytes. The file is checked again after opening (it may
/// have been swapped for a FIFO since it was found) and opened non-blocking,
/// so no path can make the run wait forever; the read stops at `max + 1`
/// bytes, so a file that grows while being read cannot exhaust memory.
pub fn read_input(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    if meta.len() > max {
        return Err(too_large(meta.len(), max));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = opts.open(path).map_err(|e| io_reason(&e))?;
    let meta = file.metadata().map_err(|e| io_reason(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > max {
        return Err(too_large(read, max));
    }
    Ok(bytes)
}

fn too_large(size: u64, max: u64) -> String {
    use crate::contracts::units::thousands;
    format!(
        "skipped: {} bytes is larger than the {} byte limit (max_file_size in platcheck.yaml)",
        thousands(i128::from(size)),
        thousands(i128::from(max))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_input_reports_a_file_gone_since_discovery() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("gone.yaml");
        std::fs::write(&p, "a: 1\n").unwrap();
        std::fs::remove_file(&p).unwrap();
        assert_eq!(
            read_input(&p, 100).unwrap_err(),
            "no such file or directory"
        );
    }

    #[test]
    fn read_input_refuses_a_fifo_swapped_in_since_discovery() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("x.yaml");
        let status = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(
            read_input(&p, 100).unwrap_err(),
            "a FIFO (named pipe) is not a regular file; skipped"
        );
    }

    #[test]
    fn read_input_enforces_the_size_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("big.sql");
        std::fs::write(&p, "x".repeat(2048)).unwrap();
        assert!(read_input(&p, 1024).unwrap_err().contains("2,048 bytes"));
        assert_eq!(read_input(&p, 2048).unwrap().len(), 2048);
    }

    #[test]
    fn io_reasons_are_worded_for_people() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(io_reason(&denied), "permission denied");
    }
}
