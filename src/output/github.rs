//! `--format github`: workflow commands that GitHub turns into annotations,
//! errors first. GitHub shows at most 10 annotations per level per step, so
//! we print 10 per level and one notice saying where the rest are; the step
//! summary (Markdown) lists counts by rule and the first 50 findings.
use crate::finding::{Finding, Severity};
use crate::outcome::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub const PER_LEVEL: usize = 10;
pub const SUMMARY_ROWS: usize = 50;

/// Escaping of workflow-command data (the message).
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of workflow-command properties (file, title).
fn prop(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(f: &Finding) -> &'static str {
    match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "notice",
    }
}

pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Notice] {
        let of_level: Vec<&Finding> = outcome
            .findings
            .iter()
            .filter(|f| f.severity == sev)
            .collect();
        for f in of_level.iter().take(PER_LEVEL) {
            let mut msg = f.message.clone();
            if let Some(h) = &f.help {
                msg.push_str("\nhelp: ");
                msg.push_str(h);
            }
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                command(f),
                prop(&f.file),
                f.line,
                f.column,
                f.end_line,
                f.end_column,
                prop(&format!("{} {}", f.rule, f.rule.meta().name)),
                data(&msg)
            );
        }
        if of_level.len() > PER_LEVEL {
            let _ = writeln!(
                out,
                "::notice title=platcheck::{} more {} {} not annotated (GitHub shows {PER_LEVEL} per level); see the step summary or the SARIF report",
                of_level.len() - PER_LEVEL,
                sev.as_str(),
                if of_level.len() - PER_LEVEL == 1 {
                    "finding is"
                } else {
                    "findings are"
                }
            );
        }
    }
    let s = &outcome.summary;
    let _ = writeln!(
        out,
        "platcheck: {} files checked: {} errors, {} warnings, {} notices ({} suppressed); today is {}",
        s.files, s.errors, s.warnings, s.notices, s.suppressed, outcome.today
    );
    out
}

/// The Markdown appended to `$GITHUB_STEP_SUMMARY`.
pub fn step_summary(outcome: &Outcome) -> String {
    let s = &outcome.summary;
    let mut out = String::from("## platcheck\n\n");
    let _ = writeln!(
        out,
        "{} files checked — **{} errors**, {} warnings, {} notices ({} suppressed). Today: {}.\n",
        s.files, s.errors, s.warnings, s.notices, s.suppressed, outcome.today
    );
    if outcome.findings.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    let mut by_rule: BTreeMap<_, (usize, Severity)> = BTreeMap::new();
    for f in &outcome.findings {
        let e = by_rule.entry(f.rule).or_insert((0, f.severity));
        e.0 += 1;
        e.1 = e.1.max(f.severity);
    }
    out.push_str("| rule | name | severity | findings |\n|---|---|---|---:|\n");
    for (rule, (n, sev)) in &by_rule {
        let _ = writeln!(
            out,
            "| [{rule}]({}) | {} | {} | {n} |",
            rule.url(),
            rule.meta().name,
            sev.as_str()
        );
    }
    let _ = writeln!(
        out,
        "\n### Findings{}\n",
        if outcome.findings.len() > SUMMARY_ROWS {
            format!(" (first {SUMMARY_ROWS} of {})", outcome.findings.len())
        } else {
            String::new()
        }
    );
    out.push_str("| location | rule | message |\n|---|---|---|\n");
    for f in outcome.findings.iter().take(SUMMARY_ROWS) {
        let _ = writeln!(
            out,
            "| `{}:{}:{}` | [{}]({}) | {} |",
            f.file,
            f.line,
            f.column,
            f.rule,
            f.rule.url(),
            cell(&f.message)
        );
    }
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\r', '\n'], " ")
}
