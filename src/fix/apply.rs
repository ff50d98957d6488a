//! Applying fixes to texts, as pure data: which fixes fit together (no two
//! edit the same bytes differently), the new text of every file they touch,
//! and the unified diff of each. Writing the files is the command's job.
use crate::finding::{Edit, Fix};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One file's change: `before` is `None` for a file the fixes create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub before: Option<String>,
    pub after: String,
}

/// The result of fitting fixes together.
#[derive(Debug, Default)]
pub struct Plan {
    pub changes: BTreeMap<PathBuf, Change>,
    /// Indexes (into the given fixes) of the fixes the plan applies.
    pub applied: Vec<usize>,
    /// Fixes left for the next pass: they edit bytes another fix of this
    /// pass already changes, or a file the run did not read.
    pub deferred: Vec<usize>,
}

/// Fits `fixes` together in order: a fix whose edits clash with one taken
/// earlier waits for the next pass (after a rerun its finding is judged on
/// the new text). `text` gives the current text of an existing file.
pub fn plan(fixes: &[&Fix], text: &dyn Fn(&Path) -> Option<String>) -> Plan {
    let mut taken: BTreeMap<PathBuf, Vec<Edit>> = BTreeMap::new();
    let mut out = Plan::default();
    for (i, fix) in fixes.iter().enumerate() {
        let fits = fix.edits.iter().all(|e| {
            let known = e.create
                || text(&e.path).is_some_and(|t| {
                    e.end <= t.len() && t.is_char_boundary(e.start) && t.is_char_boundary(e.end)
                });
            known
                && taken
                    .get(&e.path)
                    .is_none_or(|es| es.iter().all(|t| compatible(t, e)))
                && !(is_migration(e)
                    && !taken.get(&e.path).is_some_and(|es| es.contains(e))
                    && new_in_dir(&taken, e))
        });
        if !fits {
            out.deferred.push(i);
            continue;
        }
        for e in &fix.edits {
            let es = taken.entry(e.path.clone()).or_default();
            if !es.contains(e) {
                es.push(e.clone());
            }
        }
        out.applied.push(i);
    }
    for (path, edits) in taken {
        let change = if edits.iter().any(|e| e.create) {
            Change {
                before: None,
                after: edits[0].text.clone(),
            }
        } else {
            let Some(before) = text(&path) else { continue };
            let after = splice(&before, &edits);
            if after == before {
                continue;
            }
            Change {
                before: Some(before),
                after,
            }
        };
        out.changes.insert(path, change);
    }
    out
}

/// A new migration (not a sidecar): its version is the next free one when
/// the run looked, so one pass creates at most one per directory and the
/// next pass numbers the next one (the same new migrations again, as the
/// statements of one index run all write, are one fix's).
fn is_migration(e: &Edit) -> bool {
    e.create && e.path.extension().is_some_and(|x| x == "sql")
}

fn new_in_dir(taken: &BTreeMap<PathBuf, Vec<Edit>>, e: &Edit) -> bool {
    taken.iter().any(|(p, es)| {
        p != &e.path
            && history_dir(p) == history_dir(&e.path)
            && es
                .iter()
                .any(|t| is_migration(t) && may_clash(follows(t), follows(e)))
    })
}

/// Follow-ups of two different migrations cannot take one version: each
/// lies between its migration and the next existing one. Only those of one
/// migration (or a file without the marker) wait for the next pass: in a
/// history of hundreds of migrations in one directory (lemmy's), one new
/// migration a pass left `platcheck fix` busy after all its passes.
fn may_clash(a: Option<&str>, b: Option<&str>) -> bool {
    a.is_none() || b.is_none() || a == b
}

/// The migration a new file follows, by its first `-- Follows <name> (`.
fn follows(e: &Edit) -> Option<&str> {
    let at = e.text.find("-- Follows ")? + "-- Follows ".len();
    let rest = &e.text[at..];
    Some(&rest[..rest.find(" (")?])
}

/// The directory whose versions a new migration file numbers on: its own,
/// or for diesel's `<version>_<name>/up.sql` the one above.
fn history_dir(p: &Path) -> Option<&Path> {
    let dir = p.parent()?;
    if p.file_name().is_some_and(|n| n == "up.sql") {
        dir.parent()
    } else {
        Some(dir)
    }
}

/// Two edits of one file can both apply: the same edit, two insertions at
/// one point (kept in order), or ranges that do not overlap.
fn compatible(a: &Edit, b: &Edit) -> bool {
    if a == b {
        return true;
    }
    if a.create || b.create {
        return false;
    }
    let inside = |p: usize, e: &Edit| e.start < p && p < e.end;
    if a.start == a.end || b.start == b.end {
        let (ins, other) = if a.start == a.end { (a, b) } else { (b, a) };
        return !inside(ins.start, other);
    }
    a.end <= b.start || b.end <= a.start
}

/// The text with non-overlapping edits applied; insertions at one point
/// keep the order they were taken in, before a replacement starting there.
pub fn splice(text: &str, edits: &[Edit]) -> String {
    let mut order: Vec<(usize, &Edit)> = edits.iter().enumerate().collect();
    order.sort_by_key(|(i, e)| (e.start, e.end > e.start, *i));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0;
    for (_, e) in order {
        if e.start >= cursor {
            out.push_str(&text[cursor..e.start]);
        }
        out.push_str(&e.text);
        cursor = cursor.max(e.end);
    }
    out.push_str(&text[cursor..]);
    out
}

/// A unified diff of one change, with `display` as both file names.
pub fn diff(display: &str, change: &Change) -> String {
    let before = change.before.as_deref().unwrap_or("");
    let old = if change.before.is_some() {
        format!("a/{display}")
    } else {
        "/dev/null".to_string()
    };
    similar::TextDiff::from_lines(before, &change.after)
        .unified_diff()
        .context_radius(3)
        .header(&old, &format!("b/{display}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            path: PathBuf::from("f.sql"),
            start,
            end,
            text: text.into(),
            create: false,
        }
    }

    #[test]
    fn insertions_at_one_point_keep_their_order() {
        let s = splice("abc", &[edit(1, 1, "X"), edit(1, 1, "Y"), edit(1, 2, "Z")]);
        assert_eq!(s, "aXYZc");
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_pass() {
        let a = Fix {
            title: "a".into(),
            safety: crate::catalog::FixSafety::Safe,
            edits: vec![edit(0, 2, "xx")],
        };
        let b = Fix {
            title: "b".into(),
            safety: crate::catalog::FixSafety::Safe,
            edits: vec![edit(1, 3, "yy")],
        };
        let p = plan(&[&a, &b], &|_| Some("abcd".into()));
        assert_eq!(p.applied, vec![0]);
        assert_eq!(p.deferred, vec![1]);
        assert_eq!(p.changes[Path::new("f.sql")].after, "xxcd");
    }
}
