//! Baselines for legacy repositories: `platcheck baseline write` records the
//! current findings by fingerprint (rule, file, contract, JSON pointer or
//! statement text — never lines), and `--baseline FILE` hides them. Entries
//! that no longer occur are reported once, as a PC011 notice.
use crate::catalog::RuleId;
use crate::emit::Report;
use crate::finding::Finding;
use crate::fingerprint;
use crate::source::{SourceFile, Span};
use crate::workspace::Workspace;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub fingerprint: String,
    pub rule: String,
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// For people reading the file; not used for matching.
    pub message: String,
}

pub fn build(findings: &[Finding], files: &[SourceFile], root: &Path) -> Baseline {
    let by_display: std::collections::HashMap<&str, &SourceFile> =
        files.iter().map(|s| (s.display.as_str(), s)).collect();
    let mut entries: Vec<Entry> = findings
        .iter()
        .zip(fingerprint::of(findings, files, root))
        .map(|(f, fp)| Entry {
            fingerprint: fp,
            rule: f.rule.to_string(),
            file: by_display
                .get(f.file.as_str())
                .map_or_else(|| f.file.clone(), |s| fingerprint::stable_path(s, root)),
            contract: f
                .contract
                .as_ref()
                .map(|c| format!("{}/{}", c.kind, c.name)),
            pointer: f.pointer.clone(),
            message: f.message.clone(),
        })
        .collect();
    entries.sort();
    Baseline {
        version: 1,
        entries,
    }
}

pub fn to_json(b: &Baseline) -> String {
    let mut s = serde_json::to_string_pretty(b).unwrap_or_default();
    s.push('\n');
    s
}

/// Reads a baseline; the error says which file and what is wrong.
pub fn read(path: &Path, scope: &crate::read::Scope) -> Result<(Baseline, String), String> {
    // Through the one input path: `/dev/zero` or a FIFO as a baseline must
    // neither grow without bound nor hang the run.
    let text = crate::read::read_text(path, crate::settings::DEFAULT_MAX_FILE_SIZE, scope)
        .map_err(|e| format!("cannot read baseline {}: {e}", path.display()))?;
    let b: Baseline = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: invalid baseline: {e}",
            path.display(),
            e.line().max(1),
            e.column().max(1)
        )
    })?;
    if b.version != 1 {
        return Err(format!(
            "{}: baseline version {} is not supported (expected 1)",
            path.display(),
            b.version
        ));
    }
    Ok((b, text))
}

/// Removes baselined findings. Returns the hidden ones with their
/// fingerprints (the report shows them as waivers) and, when some
/// entries are stale, the PC011 report (the baseline file is added to the
/// workspace so the report can point into it). Only entries about files this
/// run checked can be stale: checking a subdirectory says nothing about the
/// rest of the baseline, and in a run limited to named files (`shown`, by
/// file index) the other files were loaded for context, not judged.
pub fn apply(
    findings: &mut Vec<Finding>,
    ws: &mut Workspace,
    baseline: &Baseline,
    root: &Path,
    (display, path, text): (&str, &Path, &str),
    shown: Option<&[bool]>,
) -> (Vec<(Finding, String)>, Option<Report>) {
    let known: BTreeSet<&str> = baseline
        .entries
        .iter()
        .map(|e| e.fingerprint.as_str())
        .collect();
    let checked: BTreeSet<String> = ws
        .files
        .iter()
        .enumerate()
        .filter(|(i, _)| shown.is_none_or(|s| s.get(*i).copied().unwrap_or(true)))
        .map(|(_, s)| fingerprint::stable_path(s, root))
        .collect();
    let prints = fingerprint::of(findings, &ws.files, root);
    let current: BTreeSet<&str> = prints.iter().map(String::as_str).collect();
    let mut hidden = Vec::new();
    let mut kept = Vec::with_capacity(findings.len());
    for (f, p) in std::mem::take(findings).into_iter().zip(&prints) {
        if known.contains(p.as_str()) {
            hidden.push((f, p.clone()));
        } else {
            kept.push(f);
        }
    }
    *findings = kept;
    let stale = baseline
        .entries
        .iter()
        .filter(|e| checked.contains(&e.file) && !current.contains(e.fingerprint.as_str()))
        .count();
    let report = (stale > 0).then(|| {
        let file = ws.add_file(SourceFile::new(display, path, text), None);
        Report::new(RuleId::PC011, file, Span::empty(0))
            .var("count", stale)
            .var(
                "entries",
                if stale == 1 {
                    "entry is"
                } else {
                    "entries are"
                },
            )
    });
    (hidden, report)
}
