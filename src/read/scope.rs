//! Where inputs may come from: inside the repository (the config root and
//! the directories named on the command line). A symlink, or a path in a
//! config such as `spec.schema.path`, that resolves elsewhere is refused
//! unless `--follow-external-links` says otherwise: a planted link to
//! `/proc/self/environ` must not print the environment in a source snippet.
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Canonical directories; empty means unrestricted (in-memory runs).
    roots: Vec<PathBuf>,
    pub follow_external: bool,
    /// Each directory's canonical path (`None`: it does not resolve), as
    /// asked for: resolving every file's whole path was ≈ 12% of a one-file
    /// run on a 5,000-contract repository. A `Scope` lives for one run
    /// (`Settings::load`), so a directory swapped for a link is seen by the
    /// next run; clones share what is known.
    dirs: std::sync::Arc<std::sync::Mutex<HashMap<PathBuf, Option<PathBuf>>>>,
}

impl Scope {
    pub fn new(root: &Path, follow_external: bool) -> Scope {
        let mut s = Scope {
            roots: Vec::new(),
            follow_external,
            dirs: Default::default(),
        };
        s.add_root(root);
        s
    }

    /// Adds a directory the user named: its own files are inside.
    pub fn add_root(&mut self, dir: &Path) {
        let canon = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !self.roots.iter().any(|r| canon.starts_with(r)) {
            self.roots.retain(|r| !r.starts_with(&canon));
            self.roots.push(canon);
        }
    }

    /// A path named on the command line was asked for: its own tree is in
    /// scope even when it lies outside the config root (links out of it are not).
    pub fn admit(&mut self, paths: &[PathBuf], cwd: &Path) {
        for p in paths {
            let abs = crate::source::normalize(&cwd.join(p));
            if !self.lexically_inside(&abs) {
                let dir = if abs.is_dir() {
                    abs.as_path()
                } else {
                    abs.parent().unwrap_or(&abs)
                };
                self.add_root(dir);
            }
        }
    }

    /// A glob (config `include`) that can only match outside the config
    /// root: absolute, or climbing out with `..`.
    pub fn pattern_leaves_root(pattern: &str) -> bool {
        pattern.starts_with('/')
            || pattern.starts_with('\\')
            || pattern.as_bytes().get(1) == Some(&b':')
            || pattern.split(['/', '\\']).any(|c| c == "..")
    }

    /// What `std::fs::canonicalize(path)` gives (`None`: it does not
    /// resolve), with the directory resolved once per run: a file that is
    /// not a link resolves to its directory's target joined with its name.
    fn resolve(&self, path: &Path) -> Option<PathBuf> {
        self.resolve_as(path, &std::fs::symlink_metadata(path).ok()?)
    }

    /// As `resolve`, for a path whose `symlink_metadata` is `meta`.
    fn resolve_as(&self, path: &Path, meta: &std::fs::Metadata) -> Option<PathBuf> {
        use std::path::Component;
        let (Some(parent), Some(Component::Normal(name))) =
            (path.parent(), path.components().next_back())
        else {
            return std::fs::canonicalize(path).ok();
        };
        if meta.file_type().is_symlink() {
            return std::fs::canonicalize(path).ok();
        }
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        let known = self.dirs.lock().ok()?.get(parent).cloned();
        let dir = match known {
            Some(dir) => dir,
            None => {
                let dir = std::fs::canonicalize(parent).ok();
                self.dirs
                    .lock()
                    .ok()?
                    .insert(parent.to_path_buf(), dir.clone());
                dir
            }
        };
        Some(dir?.join(name))
    }

    /// Whether `path` lies lexically under a root (before resolving links).
    pub fn lexically_inside(&self, path: &Path) -> bool {
        let norm = crate::source::normalize(path);
        self.roots.is_empty()
            || self.roots.iter().any(|r| norm.starts_with(r))
            || self.roots.iter().any(|r| {
                std::fs::canonicalize(path.parent().unwrap_or(path)).is_ok_and(|p| p.starts_with(r))
            })
    }

    /// Refuses a path whose target lies outside every root. A path that
    /// does not resolve (missing, dangling) is left to the read to report.
    pub fn check(&self, path: &Path) -> Result<(), String> {
        if self.roots.is_empty() || self.follow_external {
            return Ok(());
        }
        self.inside(self.resolve(path))
    }

    /// As `check`, for a path whose `symlink_metadata` the caller has taken
    /// (a one-file run stats each of 5,000 cached contracts once, not twice).
    pub fn check_as(&self, path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
        if self.roots.is_empty() || self.follow_external {
            return Ok(());
        }
        self.inside(self.resolve_as(path, meta))
    }

    fn inside(&self, target: Option<PathBuf>) -> Result<(), String> {
        let Some(target) = target else {
            return Ok(());
        };
        if self.roots.iter().any(|r| target.starts_with(r)) {
            return Ok(());
        }
        Err(format!(
            "resolves to {}, outside the repository ({}); not read (pass --follow-external-links to allow it)",
            target.display(),
            self.roots[0].display()
        ))
    }
}

/// What a repository path names, found without leaving the repository.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Found,
    Missing,
    /// Absolute, climbing out with `..`, or through a link that leads out.
    Outside,
}

/// Links followed before a lookup gives up (the kernel's own limit).
const MAX_HOPS: usize = 40;

/// Whether `rel`, relative to `root`, names an existing file or directory.
/// Resolves one component at a time, reading links as links, so nothing
/// outside `root` is ever touched: a contract naming `/etc/passwd` or
/// `../../secret` must not learn whether it exists (nor stat an automount).
pub fn lookup_inside(root: &Path, rel: &str) -> Lookup {
    use std::collections::VecDeque;
    use std::path::Component;
    let rel = Path::new(rel);
    if rel.has_root() || rel.is_absolute() {
        return Lookup::Outside;
    }
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| crate::source::normalize(root));
    let mut todo: VecDeque<std::ffi::OsString> = VecDeque::new();
    let push_front = |todo: &mut VecDeque<_>, p: &Path| {
        for c in p.components().rev() {
            todo.push_front(c.as_os_str().to_owned());
        }
    };
    push_front(&mut todo, rel);
    let mut at = root.clone();
    let mut hops = 0;
    while let Some(c) = todo.pop_front() {
        match Path::new(&c).components().next() {
            None | Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                if at == root {
                    return Lookup::Outside;
                }
                at.pop();
            }
            Some(Component::Normal(name)) => {
                let next = at.join(name);
                let Ok(meta) = std::fs::symlink_metadata(&next) else {
                    return Lookup::Missing;
                };
                if !meta.file_type().is_symlink() {
                    at = next;
                    continue;
                }
                hops += 1;
                let Ok(target) = std::fs::read_link(&next) else {
                    return Lookup::Missing;
                };
                if hops > MAX_HOPS {
                    return Lookup::Missing;
                }
                if target.has_root() {
                    // An absolute target is followed only inside the root.
                    let Ok(inner) = crate::source::normalize(&target)
                        .strip_prefix(&root)
                        .map(Path::to_path_buf)
                    else {
                        return Lookup::Outside;
                    };
                    at = root.clone();
                    push_front(&mut todo, &inner);
                } else {
                    push_front(&mut todo, &target);
                }
            }
            Some(_) => return Lookup::Outside,
        }
    }
    Lookup::Found
}

#[cfg(test)]
mod tests {
    use super::Scope;

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_root_is_refused_unless_allowed() {
        let repo = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "x").unwrap();
        let link = repo.path().join("leak.sql");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        std::fs::write(repo.path().join("ok.sql"), "").unwrap();
        let scope = Scope::new(repo.path(), false);
        assert!(
            scope
                .check(&link)
                .unwrap_err()
                .contains("outside the repository")
        );
        assert!(scope.check(&repo.path().join("ok.sql")).is_ok());
        assert!(scope.check(&secret).is_err());
        assert!(Scope::new(repo.path(), true).check(&link).is_ok());
        assert!(Scope::default().check(&link).is_ok());
    }

    /// The directory's target is remembered per run, the file's own link is
    /// still read per file: a linked directory out of the root refuses each
    /// of its files, a linked file inside a plain directory is refused too.
    #[cfg(unix)]
    #[test]
    fn a_directory_linked_out_refuses_each_of_its_files() {
        use std::os::unix::fs::symlink;
        let repo = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        for f in ["a.yaml", "b.yaml"] {
            std::fs::write(outside.path().join(f), "x").unwrap();
        }
        symlink(outside.path(), repo.path().join("linked")).unwrap();
        std::fs::create_dir(repo.path().join("plain")).unwrap();
        std::fs::write(repo.path().join("plain/ok.yaml"), "").unwrap();
        symlink(
            outside.path().join("a.yaml"),
            repo.path().join("plain/leak.yaml"),
        )
        .unwrap();
        let scope = Scope::new(repo.path(), false);
        for _ in 0..2 {
            for f in ["linked/a.yaml", "linked/b.yaml", "plain/leak.yaml"] {
                let err = scope.check(&repo.path().join(f)).unwrap_err();
                assert!(err.contains("outside the repository"), "{f}: {err}");
            }
            assert!(scope.check(&repo.path().join("plain/ok.yaml")).is_ok());
            assert!(scope.check(&repo.path().join("plain/missing.yaml")).is_ok());
        }
    }

    #[cfg(unix)]
    #[test]
    fn lookups_never_leave_the_root() {
        use super::{Lookup, lookup_inside};
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join("docs/sub")).unwrap();
        std::fs::write(repo.join("docs/a.md"), "").unwrap();
        std::fs::write(tmp.path().join("secret.md"), "").unwrap();
        symlink("../secret.md", repo.join("out.md")).unwrap();
        symlink(tmp.path().join("secret.md"), repo.join("abs-out.md")).unwrap();
        symlink(repo.join("docs/a.md"), repo.join("abs-in.md")).unwrap();
        symlink("docs/sub", repo.join("in-dir")).unwrap();
        symlink("loop", repo.join("loop")).unwrap();
        let l = |p: &str| lookup_inside(&repo, p);
        assert_eq!(l("docs/a.md"), Lookup::Found);
        assert_eq!(l("./docs/sub/../a.md"), Lookup::Found);
        assert_eq!(l("in-dir/../a.md"), Lookup::Found);
        assert_eq!(l("abs-in.md"), Lookup::Found);
        assert_eq!(l("docs/b.md"), Lookup::Missing);
        assert_eq!(l("docs/a.md/x"), Lookup::Missing);
        assert_eq!(l("loop"), Lookup::Missing);
        assert_eq!(l("../secret.md"), Lookup::Outside);
        assert_eq!(l("docs/../../secret.md"), Lookup::Outside);
        assert_eq!(l("out.md"), Lookup::Outside);
        assert_eq!(l("abs-out.md"), Lookup::Outside);
        assert_eq!(l("/etc/passwd"), Lookup::Outside);
    }
}
