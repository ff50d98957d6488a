//! `--diff` shows what `platcheck fix` would write, all passes of it: a fix
//! that another fix enables (a statement moved into a follow-up migration,
//! the next follow-up numbered after it) only exists once the first is
//! applied and the files are judged again. The passes run in a scratch
//! copy of the run's root made inside it (a dot-directory beside the
//! config, which the check's walk never enters, removed afterwards), so
//! nothing outside the repository is written; the repository's own files
//! are only read. Links stay links in the copy (see `copy_tree`), so the
//! passes meet them as `fix` and the check do.
use super::{PASSES, plan_for, write};
use crate::engine;
use crate::fix::apply::Change;
use crate::settings::Overrides;
use crate::sql::verify::signals;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The changes of every pass, and whether fixes were still found after the
/// last one.
pub type Replayed = (BTreeMap<PathBuf, Change>, bool);

/// The changes of every pass, keyed by the real paths, and whether the
/// fixes were still finding work when the passes ran out. `None` when the
/// run cannot be replayed in a copy (paths outside its root, a git
/// comparison): then only the first pass is shown.
pub fn changes(
    paths: &[PathBuf],
    cwd: &Path,
    ov: &Overrides,
    root: &Path,
    unsafe_fixes: bool,
) -> Result<Option<Replayed>, String> {
    if ov.changed_since.is_some() || ov.base.is_some() {
        return Ok(None);
    }
    let root = crate::source::normalize(&abs(root, cwd));
    remove_stale(&root);
    // The handler is installed and the path known before the directory
    // exists: a signal at any point after removes it (the signal thread
    // runs the cleanup and exits), and so does the drop of `_cleanup` on a
    // normal end or an error.
    let copy = &root.join(format!(
        "{}{}-{}",
        crate::discover::SCRATCH_PREFIX,
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let doomed = copy.clone();
    let _cleanup = signals::register(move || {
        let _ = std::fs::remove_dir_all(&doomed);
        if signals::interrupted() {
            // The main thread stops at its next file operation once the
            // signal is seen; what the one in flight made goes too.
            std::thread::sleep(std::time::Duration::from_millis(50));
            let _ = std::fs::remove_dir_all(&doomed);
        }
    });
    std::fs::create_dir(copy)
        .map_err(|e| format!("--diff: no scratch directory in {}: {e}", root.display()))?;
    std::fs::write(copy.join(OWNER), format!("{}\n", std::process::id()))
        .map_err(|e| format!("--diff: cannot mark the scratch directory: {e}"))?;
    let moved = |p: &Path| -> Option<PathBuf> {
        let p = crate::source::normalize(&abs(p, cwd));
        Some(copy.join(p.strip_prefix(&root).ok()?))
    };
    let (Some(cwd2), Some(paths2)) = (
        moved(cwd),
        paths.iter().map(|p| moved(p)).collect::<Option<Vec<_>>>(),
    ) else {
        return Ok(None);
    };
    let mut ov2 = ov.clone();
    for p in [&mut ov2.config, &mut ov2.baseline].into_iter().flatten() {
        let Some(m) = moved(p) else { return Ok(None) };
        *p = m;
    }
    copy_tree(&root, copy)?;
    let mut written: BTreeSet<PathBuf> = BTreeSet::new();
    let mut busy = true;
    for _ in 0..PASSES {
        let outcome = engine::run(&paths2, &cwd2, &ov2).map_err(|engine::RunError::Usage(m)| m)?;
        let plan = plan_for(&outcome, unsafe_fixes);
        if plan.changes.is_empty() {
            busy = false;
            break;
        }
        for (path, change) in &plan.changes {
            stop_if_interrupted()?;
            // A refusal (a link) names the repository's path, not the copy's.
            write::apply(path, change)
                .map_err(|e| e.replace(&copy.display().to_string(), &root.display().to_string()))?;
            written.insert(path.clone());
        }
    }
    let mut out = BTreeMap::new();
    for path in written {
        let Ok(rel) = path.strip_prefix(copy) else {
            return Ok(None);
        };
        let real = root.join(rel);
        let after = std::fs::read_to_string(&path).map_err(|e| format!("{rel:?}: {e}"))?;
        let before = match std::fs::read_to_string(&real) {
            Ok(t) => Some(t.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("{}: {e}", real.display())),
        };
        let after = after
            .strip_prefix('\u{feff}')
            .map(str::to_string)
            .unwrap_or(after);
        if before.as_deref() != Some(after.as_str()) {
            out.insert(real, Change { before, after });
        }
    }
    Ok(Some((out, busy)))
}

/// The file in a scratch copy naming the process that made it (its name
/// has the scratch prefix, so no walk of the copy reads it).
const OWNER: &str = ".platcheck-fix-scratch-owner";

/// Scratch copies an earlier `fix --diff` left in `root` (killed with
/// SIGKILL, or the machine went down): directories with the scratch prefix
/// holding the owner file platcheck writes, whose process is gone. Anything
/// else with the prefix, and the copy of a run still going, is left alone.
pub fn remove_stale(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let named = e
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(crate::discover::SCRATCH_PREFIX));
        // A link with the prefix is not a copy platcheck made.
        if !named || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let owner = std::fs::read_to_string(e.path().join(OWNER)).ok();
        let Some(pid) = owner.and_then(|o| o.trim().parse::<i32>().ok()) else {
            continue;
        };
        if pid > 0 && !alive(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(unix)]
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_: i32) -> bool {
    true
}

/// A signal arrived: the signal thread is removing the copy; writing on
/// into it would bring parts of it back.
fn stop_if_interrupted() -> Result<(), String> {
    if signals::interrupted() {
        signals::settle_if_interrupted();
        return Err("--diff: interrupted".into());
    }
    Ok(())
}

fn abs(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

/// The files the walk of `root` would see (its ignore files honoured, no
/// `.git`, no scratch copies), copied with their directories. Links are
/// copied as links, so that the check in the copy follows or refuses them
/// as the check of the repository does (containment) and `fix`'s refusal
/// to write through one is met in the copy too: a link whose target lies
/// inside the root points at that target's copy, any other keeps its
/// target.
fn copy_tree(root: &Path, to: &Path) -> Result<(), String> {
    let canon_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .follow_links(false)
        .require_git(false)
        .filter_entry(|e| !crate::discover::never_walked(e.file_name()))
        .build();
    for entry in walker {
        stop_if_interrupted()?;
        let entry = entry.map_err(|e| format!("--diff: {e}"))?;
        let Some(kind) = entry.file_type() else {
            continue;
        };
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let target = to.join(rel);
        let result = if kind.is_symlink() {
            link_copy(entry.path(), &target, &canon_root, to)
        } else if kind.is_dir() {
            std::fs::create_dir_all(&target)
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).map(drop)
        } else {
            Ok(())
        };
        result.map_err(|e| format!("--diff: cannot copy {}: {e}", entry.path().display()))?;
    }
    Ok(())
}

#[cfg(unix)]
fn link_copy(link: &Path, at: &Path, canon_root: &Path, to: &Path) -> std::io::Result<()> {
    let points = match std::fs::canonicalize(link) {
        Ok(t) => match t.strip_prefix(canon_root) {
            Ok(inside) => to.join(inside),
            Err(_) => t,
        },
        // Dangling: it dangles the same way in the copy.
        Err(_) => std::fs::read_link(link)?,
    };
    std::os::unix::fs::symlink(points, at)
}

/// Elsewhere links are not recreated: the check in the copy skips them.
#[cfg(not(unix))]
fn link_copy(_: &Path, _: &Path, _: &Path, _: &Path) -> std::io::Result<()> {
    Ok(())
}
