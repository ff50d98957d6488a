//! Stable identities for findings, shared by SARIF `partialFingerprints`,
//! GitLab fingerprints and baselines. They are keyed on what a finding is
//! about — rule, file, contract and JSON pointer, or for findings without a
//! pointer (SQL statements, Markdown hits) the normalised text at the span —
//! never on line numbers, so an edit above a finding does not change it.
use crate::finding::Finding;
use crate::outcome::Outcome;
use crate::source::{SourceFile, normalize};
use std::collections::HashMap;
use std::path::Path;

/// FNV-1a, 64 bit: tiny, dependency-free and stable across releases.
pub fn fnv1a(data: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in data.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The path a fingerprint uses: relative to the config root (the directory
/// of platcheck.yaml, else the working directory), so a baseline written from
/// one directory still matches when platcheck runs from another.
pub fn stable_path(src: &SourceFile, root: &Path) -> String {
    let abs = normalize(&src.path);
    match abs.strip_prefix(normalize(root)) {
        Ok(rel) if !rel.as_os_str().is_empty() => crate::source::slashes(&rel.to_string_lossy()),
        _ => src.display.clone(),
    }
}

/// The human-readable identity of a finding (without the occurrence index).
fn identity(f: &Finding, src: Option<&SourceFile>, root: &Path) -> String {
    let contract = f
        .contract
        .as_ref()
        .map_or(String::new(), |c| format!("{}/{}", c.kind, c.name));
    let anchor = match &f.pointer {
        Some(p) => p.clone(),
        None => {
            let text = src.and_then(|s| s.text.get(f.start..f.end)).unwrap_or("");
            let normal: Vec<&str> = text.split_whitespace().collect();
            format!("text:{:016x}", fnv1a(&normal.join(" ").to_lowercase()))
        }
    };
    let file = src.map_or_else(|| f.file.clone(), |s| stable_path(s, root));
    format!("{}|{}|{}|{}", f.rule, file, contract, anchor)
}

/// One fingerprint per finding, in the order of `outcome.findings`. Equal
/// identities get an occurrence suffix so they stay distinct.
pub fn all(outcome: &Outcome) -> Vec<String> {
    of(&outcome.findings, &outcome.files, &outcome.root)
}

/// Fingerprints of `findings` (sorted as the engine sorts them).
pub fn of(findings: &[Finding], files: &[SourceFile], root: &Path) -> Vec<String> {
    let by_display: HashMap<&str, &SourceFile> =
        files.iter().map(|s| (s.display.as_str(), s)).collect();
    let mut seen: HashMap<String, usize> = HashMap::new();
    findings
        .iter()
        .map(|f| {
            let id = identity(f, by_display.get(f.file.as_str()).copied(), root);
            let n = seen.entry(id.clone()).or_insert(0);
            *n += 1;
            format!("{:016x}:{}", fnv1a(&id), n)
        })
        .collect()
}
