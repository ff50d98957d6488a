//! `--diff` shows what `platcheck fix` would write, all passes of it: a fix
//! that another fix enables (a statement moved into a follow-up migration,
//! the next follow-up numbered after it) only exists once the first is
//! applied and the files are judged again. The passes run in a private
//! scratch copy of the run's root, removed afterwards; the repository is
//! only read.
use super::{PASSES, plan_for, write};
use crate::engine;
use crate::fix::apply::Change;
use crate::settings::Overrides;
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
    let tmp = tempfile::tempdir().map_err(|e| format!("--diff: no scratch directory: {e}"))?;
    let copy = tmp.path();
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
            write::apply(path, change)?;
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

fn abs(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

/// The files the walk of `root` would see (its ignore files honoured, no
/// `.git`, no links), copied with their directories.
fn copy_tree(root: &Path, to: &Path) -> Result<(), String> {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .follow_links(false)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walker {
        let entry = entry.map_err(|e| format!("--diff: {e}"))?;
        let Some(kind) = entry.file_type() else {
            continue;
        };
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let target = to.join(rel);
        let result = if kind.is_dir() {
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
