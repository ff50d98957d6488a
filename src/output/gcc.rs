//! `--format gcc`: `file:line:col: severity: [ID] message`, one line per
//! finding, for editors and tools that read compiler output.
use super::escape;
use crate::finding::Severity;
use crate::outcome::Outcome;
use std::fmt::Write as _;

pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Notice => "note",
        };
        let _ = writeln!(
            out,
            "{}:{}:{}: {sev}: [{}] {}",
            escape::file_name(&f.file),
            f.line,
            f.column,
            f.rule,
            escape::one_line(&f.message)
        );
    }
    out
}
