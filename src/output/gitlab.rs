//! `--format gitlab`: GitLab Code Quality report (a JSON array of issues).
use super::fingerprint;
use crate::finding::Severity;
use crate::outcome::Outcome;
use serde_json::json;

pub fn render(outcome: &Outcome) -> String {
    let prints = fingerprint::all(outcome);
    let issues: Vec<_> = outcome
        .findings
        .iter()
        .zip(prints)
        .map(|(f, fp)| {
            let severity = match f.severity {
                Severity::Error => "major",
                Severity::Warning => "minor",
                Severity::Notice => "info",
            };
            json!({
                "type": "issue",
                "check_name": f.rule.as_str(),
                "description": format!("[{}] {}", f.rule, f.message),
                "categories": ["Bug Risk"],
                "severity": severity,
                "fingerprint": fp,
                "location": {
                    "path": f.file,
                    "positions": {
                        "begin": {"line": f.line, "column": f.column},
                        "end": {"line": f.end_line, "column": f.end_column}
                    }
                }
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_default();
    s.push('\n');
    s
}
