//! Finding the input files: walk the given paths (respecting .gitignore, also
//! outside a git repository), apply the config's include/exclude globs, and
//! classify each file for its engine.
use crate::read::{io_reason, not_regular};
use crate::settings::{CONFIG_NAME, Settings};
// Their old home; kept so that callers above this layer need not change.
pub use crate::read::read_input;
pub use crate::source::{FileClass, display_path, normalize};
use std::path::{Path, PathBuf};

mod globs;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub display: String,
    pub path: PathBuf,
    pub class: FileClass,
    /// Named on the command line: it gets a result line even when it turns
    /// out not to be ours (YAML that is no contract).
    pub named: bool,
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
    /// Files named on the command line that platcheck does not read (PC017).
    pub unchecked: Vec<WalkProblem>,
    /// `include` patterns (by index) that matched no input of a walk that
    /// covered the whole config root: the config promises files it never finds.
    pub unmatched_include: Vec<usize>,
}

fn unchecked_reason(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == CONFIG_NAME) {
        return "it is the config file, which is read as the configuration, not checked as an input".into();
    }
    "platcheck reads contracts (.yaml, .yml), migrations (.sql) and documents (.md); this file is none of them".into()
}

/// The name prefix of `platcheck fix --diff`'s scratch copy of the root
/// (made inside the repository, removed afterwards).
pub const SCRATCH_PREFIX: &str = ".platcheck-fix-scratch-";

/// Entries no walk enters: `.git`, and a scratch copy of the repository a
/// concurrent `fix --diff` is making (its files are not the repository's).
pub fn never_walked(name: &std::ffi::OsStr) -> bool {
    name == ".git" || name.to_str().is_some_and(|n| n.starts_with(SCRATCH_PREFIX))
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

pub fn discover(paths: &[PathBuf], cwd: &Path, settings: &Settings) -> Result<Discovered, String> {
    let (include, owner) = globs::compile(&settings.include, "include", settings)?;
    let exclude = globs::compile(&settings.exclude, "exclude", settings)?.0;
    let mut out = Discovered::default();
    let mut matched = vec![false; settings.include.len()];
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let root = canon(&settings.root);
    let mut covered_root = false;
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
                out.unchecked.push(WalkProblem {
                    display: display_path(&abs, cwd),
                    reason: unchecked_reason(&abs),
                });
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
                    named: true,
                });
            }
            continue;
        }
        covered_root |= root.starts_with(canon(&abs));
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
        let scope = settings.scope.clone();
        let root = settings.root.clone();
        let exclude_in_filter = exclude.clone();
        let include_in_filter = (!settings.include.is_empty()).then(|| include.clone());
        let walker = ignore::WalkBuilder::new(&abs)
            .hidden(false)
            .follow_links(true)
            .require_git(false)
            .filter_entry(move |e| {
                if never_walked(e.file_name()) {
                    return false;
                }
                // Links are followed inside the repository only: one that
                // leads out is reported (when it is an input) and not entered.
                if e.path_is_symlink()
                    && let Err(reason) = scope.check(e.path())
                {
                    let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
                    let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                    // Reported only when it would have been checked: a
                    // directory by the inputs it could hold.
                    let included = include_in_filter.as_ref().is_none_or(|inc| {
                        if is_dir {
                            ["x.yaml", "x.sql", "x.md"]
                                .iter()
                                .any(|n| inc.is_match(rel.join(n)))
                        } else {
                            inc.is_match(rel)
                        }
                    });
                    if included
                        && !exclude_in_filter.is_match(rel)
                        && (is_dir || classify(e.path()).is_some())
                        && let Ok(mut v) = skipped_in_filter.lock()
                    {
                        v.push(WalkProblem {
                            display: display_path(e.path(), &cwd_in_filter),
                            reason: format!("a symlink that {reason}"),
                        });
                    }
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
            let Some(ft) = entry.file_type() else {
                continue;
            };
            if ft.is_dir() {
                continue;
            }
            let rel = path.strip_prefix(&settings.root).unwrap_or(path);
            // Any file counts as a match (`schemas/**` selects payload
            // schemas, which are read through their contracts).
            if !settings.include.is_empty() {
                let hits = include.matches(rel);
                if hits.is_empty() {
                    continue;
                }
                for h in hits {
                    matched[owner[h]] = true;
                }
            }
            let Some(class) = classify(path) else {
                continue;
            };
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
                named: false,
            });
        }
        if let Ok(mut v) = skipped.lock() {
            out.problems.append(&mut v);
        }
    }
    if covered_root {
        out.unmatched_include = (0..matched.len()).filter(|i| !matched[*i]).collect();
    }
    out.files.sort();
    // A file both walked and named keeps its `named` mark (it decides PC017).
    out.files.dedup_by(|a, b| {
        let same = a.path == b.path;
        if same {
            b.named |= a.named;
        }
        same
    });
    out.problems.sort();
    out.problems.dedup();
    // A named file the walk already refused (a link out of the repository)
    // is reported once, by the walk.
    let refused: std::collections::BTreeSet<&str> =
        out.problems.iter().map(|p| p.display.as_str()).collect();
    out.files.retain(|c| !refused.contains(c.display.as_str()));
    Ok(out)
}

/// PC008 for each `include` pattern that matched nothing (located at the
/// pattern in the config), unless `already` reports it as pointing outside.
pub fn unmatched_include_reports(
    found: &Discovered,
    settings: &Settings,
    already: &[crate::emit::Report],
) -> Vec<crate::emit::Report> {
    use crate::catalog::RuleId;
    found
        .unmatched_include
        .iter()
        .filter_map(|i| Some((settings.include.get(*i)?, settings.include_at.get(*i)?)))
        .filter(|(_, (_, span))| {
            !already
                .iter()
                .any(|r| r.rule == RuleId::PC008 && r.span == *span)
        })
        .map(|(pattern, (pointer, span))| {
            crate::emit::Report::new(RuleId::PC008, 0, *span)
                .pointer(pointer.clone())
                .var(
                    "detail",
                    format!("include pattern `{pattern}` matches no file in the repository, so what it was meant to select is not checked"),
                )
        })
        .collect()
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
                crate::read::file_kind(&meta.file_type()),
                display_path(dir, cwd)
            ),
        })
    })
}
