//! The flagged sqitch change's own revert script, after a fix moved work
//! out of its deploy script into changes that follow it: sqitch reverts
//! those first (their reverts drop what they build), so the flagged
//! change's revert must neither drop again what its deploy no longer
//! creates (a `DROP INDEX` of a moved index fails: it is gone) nor leave
//! behind what its deploy now creates (the NOT VALID CHECK a SET NOT NULL
//! fix adds there: left over, the next deploy fails on it). Without these
//! edits `sqitch revert` stops at the flagged change, and a redeploy fails.
use super::next::Follow;
use super::{Site, eol, line_start};
use crate::finding::Edit;
use crate::sql::Dialect;
use crate::sql::split::split;
use regex::Regex;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::LazyLock;

/// An identifier as written: double-quoted or bare, optionally qualified.
const NAME: &str = r#"((?:"(?:[^"]|"")*"|[^\s".(,;]+)(?:\.(?:"(?:[^"]|"")*"|[^\s".(,;]+))?)"#;

static CREATES_INDEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?{NAME}\s+ON\b"
    ))
    .unwrap()
});
static ADDS_CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?{NAME}\s+ADD\s+CONSTRAINT\s+{NAME}\s"
    ))
    .unwrap()
});
static DROPS_INDEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^DROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?{NAME}\s*(?:CASCADE|RESTRICT)?\s*$"
    ))
    .unwrap()
});
static DROPS_CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?is)^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?{NAME}\s+DROP\s+CONSTRAINT\s+(?:IF\s+EXISTS\s+)?{NAME}\s*(?:CASCADE|RESTRICT)?\s*$"
    ))
    .unwrap()
});
static SET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?is)^(?:SET|RESET)\b").unwrap());

/// The edits of `revert/<change>.sql` that keep it the undo of
/// `deploy/<change>.sql` once `chain` moved out of it: none when the
/// project has no such revert script.
pub fn edits(site: &Site, root: &Path, change: &str, chain: &[Follow]) -> Vec<Edit> {
    let path = root.join("revert").join(format!("{change}.sql"));
    let Some(file) = site.ctx.ws.files.iter().find(|f| f.path == path) else {
        return Vec::new();
    };
    let text: &str = &file.text;
    let nl = eol(text);
    let mut moved = BTreeSet::new();
    for s in chain.iter().flat_map(|f| f.stmts) {
        if let Some(c) = CREATES_INDEX.captures(s) {
            moved.insert(folded(&c[1]));
        }
        if let Some(c) = ADDS_CONSTRAINT.captures(s) {
            moved.insert(folded(&c[2]));
        }
    }
    // What a follow-up's revert puts back is what the flagged deploy now
    // creates (the CHECK a later change drops): (table, constraint).
    let created: Vec<(String, String)> = (chain.iter())
        .filter_map(|f| f.undo.as_ref())
        .flatten()
        .filter_map(|u| ADDS_CONSTRAINT.captures(u))
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    let mut out = Vec::new();
    let mut dropped = BTreeSet::new();
    let mut first = None;
    for p in split(text, Dialect::Postgres) {
        if !p.is_statement() {
            continue;
        }
        let body = &text[p.body.start..p.body.end];
        let gone = if let Some(c) = DROPS_INDEX.captures(body) {
            Some(folded(&c[1]))
        } else if let Some(c) = DROPS_CONSTRAINT.captures(body) {
            dropped.insert(folded(&c[2]));
            Some(folded(&c[2]))
        } else {
            None
        };
        if gone.as_ref().is_some_and(|g| moved.contains(g)) {
            out.push(removal(site, &path, text, p.body.start, p.span.end));
        } else if first.is_none() && !SET.is_match(body) {
            first = Some(p.body.start);
        }
    }
    let drops: String = (created.iter())
        .filter(|(_, c)| !dropped.contains(&folded(c)))
        .map(|(t, c)| format!("ALTER TABLE {t} DROP CONSTRAINT IF EXISTS {c};{nl}"))
        .collect();
    if !drops.is_empty() {
        // First, and before the revert's own BEGIN: a statement of its own
        // (its ACCESS EXCLUSIVE is not held across the revert's other
        // work), and before a column or table the revert drops takes the
        // constraint along. IF EXISTS: a rerun after a failed revert.
        let at = match first {
            Some(at) if text[line_start(text, at)..at].trim().is_empty() => line_start(text, at),
            Some(at) => at,
            None => text.len(),
        };
        out.push(insert(&path, at, drops));
    }
    out
}

/// The statement's lines: from the start of its line (when nothing comes
/// before it there) through its terminator and the rest of that line when
/// blank.
fn removal(site: &Site, path: &Path, text: &str, body: usize, end: usize) -> Edit {
    let ls = line_start(text, body);
    let start = if text[ls..body].trim().is_empty() {
        ls
    } else {
        body
    };
    let tail = &text[end..];
    let line_end = tail.find('\n').map_or(tail.len(), |i| i + 1);
    let end = if tail[..line_end].trim().is_empty() {
        end + line_end
    } else {
        end
    };
    let mut e = site.edit(start, end, "");
    e.path = path.to_path_buf();
    e
}

fn insert(path: &Path, at: usize, text: String) -> Edit {
    Edit {
        path: path.to_path_buf(),
        start: at,
        end: at,
        text,
        create: false,
    }
}

/// The catalog name of the last part of a (qualified) identifier.
fn folded(name: &str) -> String {
    let mut quoted = false;
    let mut last = 0;
    for (i, ch) in name.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '.' if !quoted => last = i + 1,
            _ => {}
        }
    }
    let part = &name[last..];
    match part.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => part.to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_of_moved_objects_are_recognised() {
        let c = DROPS_INDEX
            .captures("DROP INDEX CONCURRENTLY IF EXISTS app.\"Idx\"")
            .unwrap();
        assert_eq!(folded(&c[1]), "Idx");
        let c = DROPS_CONSTRAINT
            .captures("ALTER TABLE ONLY orders DROP CONSTRAINT orders_k CASCADE")
            .unwrap();
        assert_eq!(folded(&c[2]), "orders_k");
        assert!(DROPS_INDEX.captures("DROP INDEX a, b").is_none());
        let c = CREATES_INDEX
            .captures("CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS Orders_K ON orders (k)")
            .unwrap();
        assert_eq!(folded(&c[1]), "orders_k");
    }
}
