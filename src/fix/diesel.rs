//! diesel: a migration is a directory `<version>_<name>/` holding `up.sql`
//! (and `down.sql`); `run_in_transaction = false` in its `metadata.toml`
//! runs it outside the transaction diesel gives each migration.
use super::versions::{created, next_free, sibling_texts, slot};
use super::{Site, eol};
use crate::finding::Edit;
use std::path::Path;

/// The flagged `up.sql`'s directory and its version, when it is diesel's.
fn migration_dir<'a>(site: &'a Site) -> Option<(&'a Path, &'a str, &'a str)> {
    if site.path.file_name()? != "up.sql" {
        return None;
    }
    let dir = site.path.parent()?;
    let name = dir.file_name()?.to_str()?;
    let (version, rest) = name.split_once('_')?;
    let ok = !rest.is_empty()
        && version.starts_with(|c: char| c.is_ascii_digit())
        && version.chars().all(|c| c.is_ascii_digit() || c == '-');
    ok.then_some((dir, version, rest))
}

/// `metadata.toml` with `run_in_transaction = false`, when the directory
/// has none yet (an existing one is the user's to edit).
pub fn opt_out(site: &Site) -> Option<Vec<Edit>> {
    let (dir, _, _) = migration_dir(site)?;
    let meta = dir.join("metadata.toml");
    if meta.exists() {
        return None;
    }
    Some(vec![created(
        meta,
        format!("run_in_transaction = false{}", eol(site.text)),
    )])
}

/// The version `skip + 1` after `version`: its last run of digits counted
/// on, same width (`2026-01-02-000000` → `2026-01-02-000001`).
fn next_version(version: &str, skip: usize) -> Option<String> {
    let digits = version.len() - version.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (head, tail) = version.split_at(version.len() - digits);
    let n: u128 = tail.parse().ok()?;
    let next = format!("{:0width$}", n + 1 + skip as u128, width = digits);
    (next.len() == digits).then(|| format!("{head}{next}"))
}

/// diesel orders by the version with its dashes dropped.
fn key(version: &str) -> String {
    version.replace('-', "")
}

/// A migration directory right after the flagged one holding `statements`.
pub fn following(
    site: &Site,
    statements: &str,
    no_tx: bool,
    desc: &str,
    skip: usize,
) -> Option<Vec<Edit>> {
    let (dir, version, _) = migration_dir(site)?;
    let root = dir.parent()?;
    let name = dir.file_name()?.to_str()?;
    let next = next_free(skip, |k| {
        let v = next_version(version, k as usize - 1)?;
        let to = key(&v);
        // The directories of this version (walking them one by one, none
        // is jumped over).
        let texts = sibling_texts(site, root, |n| {
            n.split_once('_').is_some_and(|(w, _)| key(w) == to)
        });
        Some((slot(&texts, name), v))
    })?;
    let nl = eol(site.text);
    let new_dir = root.join(format!("{next}_{desc}"));
    // Outside a transaction diesel sends the file as one query: a SET
    // would make it a transaction (the caller writes one statement then).
    let bounds = if no_tx {
        super::timeouts::unbounded_note(site)
    } else {
        super::timeouts::preamble(site)
    };
    let body = format!("-- Follows {name} (written by `platcheck fix`).{nl}{bounds}{statements}");
    let mut edits = vec![created(new_dir.join("up.sql"), body)];
    if no_tx {
        edits.push(created(
            new_dir.join("metadata.toml"),
            format!("run_in_transaction = false{nl}"),
        ));
    }
    Some(edits)
}

#[cfg(test)]
mod tests {
    use super::next_version;

    #[test]
    fn versions_count_on_in_their_last_digits() {
        assert_eq!(
            next_version("2026-01-02-000000", 0).as_deref(),
            Some("2026-01-02-000001")
        );
        assert_eq!(
            next_version("00000000000000", 1).as_deref(),
            Some("00000000000002")
        );
        assert_eq!(next_version("99", 0), None);
    }
}
