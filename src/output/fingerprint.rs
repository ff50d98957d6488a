//! Stable identities for findings, shared by SARIF `partialFingerprints`,
//! GitLab fingerprints and baselines. They are keyed on what a finding is
//! about — rule, file, contract and JSON pointer, or for findings without a
//! pointer (SQL statements, Markdown hits) the normalised text at the span —
//! never on line numbers, so an edit above a finding does not change it.
use crate::engine::Outcome;
use crate::finding::Finding;
use crate::workspace::Workspace;
use std::collections::HashMap;

/// FNV-1a, 64 bit: tiny, dependency-free and stable across releases.
pub fn fnv1a(data: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in data.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The human-readable identity of a finding (without the occurrence index).
pub fn identity(f: &Finding, ws: &Workspace) -> String {
    let contract = f
        .contract
        .as_ref()
        .map_or(String::new(), |c| format!("{}/{}", c.kind, c.name));
    let anchor = match &f.pointer {
        Some(p) => p.clone(),
        None => {
            let text = ws
                .files
                .iter()
                .find(|s| s.display == f.file)
                .and_then(|s| s.text.get(f.start..f.end))
                .unwrap_or("");
            let normal: Vec<&str> = text.split_whitespace().collect();
            format!("text:{:016x}", fnv1a(&normal.join(" ").to_lowercase()))
        }
    };
    format!("{}|{}|{}|{}", f.rule, f.file, contract, anchor)
}

/// One fingerprint per finding, in the order of `outcome.findings`. Equal
/// identities get an occurrence suffix so they stay distinct.
pub fn all(outcome: &Outcome) -> Vec<String> {
    of(&outcome.findings, &outcome.workspace)
}

/// Fingerprints of `findings` (sorted as the engine sorts them).
pub fn of(findings: &[Finding], ws: &Workspace) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    findings
        .iter()
        .map(|f| {
            let id = identity(f, ws);
            let n = seen.entry(id.clone()).or_insert(0);
            *n += 1;
            format!("{:016x}:{}", fnv1a(&id), n)
        })
        .collect()
}
