//! Which version a follow-up migration takes: the next free one after the
//! flagged migration, walking past follow-ups `platcheck fix` wrote for it
//! (their marker line) and stopping at anybody else's migration.
use super::Site;
use crate::finding::Edit;
use std::path::{Path, PathBuf};

/// What holds a version the follow-up could take.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Free,
    /// A follow-up `platcheck fix` wrote for this same migration (an
    /// earlier pass): the next one goes after it.
    Ours,
    /// Another migration: what follows must not jump over it.
    Theirs,
}

/// Whose the migrations `texts` (one version's files) are.
pub(crate) fn slot(texts: &[String], flagged: &str) -> Slot {
    if texts.is_empty() {
        Slot::Free
    } else if texts.iter().all(|t| t.contains(MARK))
        && texts
            .iter()
            .any(|t| t.contains(&format!("-- Follows {flagged} ")))
    {
        Slot::Ours
    } else {
        Slot::Theirs
    }
}

pub(crate) const MARK: &str = "written by `platcheck fix`";

/// The `skip`-th free version after the flagged one, walking `at(1)`,
/// `at(2)`, … past follow-ups of ours; `None` at another migration.
pub(crate) fn next_free(
    skip: usize,
    at: impl Fn(u128) -> Option<(Slot, String)>,
) -> Option<String> {
    let mut free = 0;
    for k in 1..=32 {
        let (slot, version) = at(k)?;
        match slot {
            Slot::Theirs => return None,
            Slot::Ours => {}
            Slot::Free if free == skip => return Some(version),
            Slot::Free => free += 1,
        }
    }
    None
}

/// The texts of the files in `dir` whose names `pick` takes: as the run
/// read them, else from the disk.
pub(crate) fn sibling_texts(site: &Site, dir: &Path, pick: impl Fn(&str) -> bool) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(&pick))
        .map(|e| {
            let path = e.path();
            let read = site.ctx.ws.files.iter().find(|f| f.path == path);
            match read {
                Some(f) => f.text.to_string(),
                None if path.is_dir() => {
                    std::fs::read_to_string(path.join("up.sql")).unwrap_or_default()
                }
                None => std::fs::read_to_string(&path).unwrap_or_default(),
            }
        })
        .collect()
}

pub(crate) fn created(path: PathBuf, text: String) -> Edit {
    Edit {
        path,
        start: 0,
        end: 0,
        text,
        create: true,
    }
}
