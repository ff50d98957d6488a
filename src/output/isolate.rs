//! A printer that panics must not lose the run: the findings it cannot
//! print are replaced by a PC000 finding each (so the run exits 2, as the
//! README promises), and everything else is printed as usual.
use crate::catalog::{self, RuleId};
use crate::finding::{Finding, Severity};
use crate::outcome::Outcome;
use std::panic::{AssertUnwindSafe, catch_unwind};

pub fn render_isolated(
    outcome: &mut Outcome,
    printer: &str,
    render: impl Fn(&Outcome) -> String,
) -> String {
    let render = |o: &Outcome| {
        inject_panic(&o.findings);
        render(o)
    };
    if let Ok(text) = catch_unwind(AssertUnwindSafe(|| render(outcome))) {
        return text;
    }
    // Which findings does the printer fail on? Each is tried alone, quietly:
    // the first panic has already been reported on stderr.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let all = std::mem::take(&mut outcome.findings);
    let mut kept = Vec::new();
    let mut failed = Vec::new();
    for f in all {
        outcome.findings = vec![f];
        let ok = catch_unwind(AssertUnwindSafe(|| render(outcome))).is_ok();
        let f = outcome.findings.pop().expect("the finding just put there");
        if ok { kept.push(f) } else { failed.push(f) }
    }
    outcome.findings = kept;
    for f in &failed {
        outcome.findings.push(pc000(printer, Some(f)));
        bump(&mut outcome.summary, f.severity, -1);
        bump(&mut outcome.summary, Severity::Error, 1);
    }
    outcome
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let text = catch_unwind(AssertUnwindSafe(|| render(outcome)));
    std::panic::set_hook(hook);
    text.unwrap_or_else(|_| {
        // Not about one finding (the summary, the header): say so plainly.
        if !outcome.findings.iter().any(|f| f.rule == RuleId::PC000) {
            outcome.findings.push(pc000(printer, None));
        }
        failed_text(printer, outcome.findings.len())
    })
}

/// What is printed instead of a printer's output when it fails outside any
/// one finding (the summary, the header).
pub(super) fn failed_text(printer: &str, findings: usize) -> String {
    format!(
        "platcheck: internal error: the {printer} printer failed; {findings} findings could not be printed (please report this)\n"
    )
}

/// Fault injection for the isolation tests: with `PLATCHECK_INJECT_PANIC`
/// set to `printer:<suffix>`, a printer panics on any finding in a file
/// whose path ends with the suffix.
pub(super) fn inject_panic(findings: &[Finding]) {
    if let Some(v) = std::env::var_os("PLATCHECK_INJECT_PANIC")
        && let Some(suffix) = v.to_string_lossy().strip_prefix("printer:")
        && findings
            .iter()
            .any(|f| f.rule != RuleId::PC000 && f.file.ends_with(suffix))
    {
        panic!("injected by PLATCHECK_INJECT_PANIC in the printer");
    }
}

pub(super) fn bump(s: &mut crate::outcome::Summary, severity: Severity, by: isize) {
    let n = match severity {
        Severity::Error => &mut s.errors,
        Severity::Warning => &mut s.warnings,
        Severity::Notice => &mut s.notices,
    };
    *n = n.saturating_add_signed(by);
}

/// The PC000 that stands in for a finding the printer failed on: at the
/// start of its file, so that the position that may have caused the failure
/// is named in the message rather than rendered.
pub(super) fn pc000(printer: &str, f: Option<&Finding>) -> Finding {
    let detail = match f {
        None => format!("the {printer} printer failed"),
        Some(f) => format!(
            "the {printer} printer failed on the {} finding at line {}, column {}",
            f.rule, f.line, f.column
        ),
    };
    let meta = RuleId::PC000.meta();
    let vars = vec![("detail", detail)];
    Finding {
        rule: RuleId::PC000,
        severity: Severity::Error,
        file: f.map(|f| f.file.clone()).unwrap_or_default(),
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 1,
        start: 0,
        end: 0,
        message: catalog::render_template(&meta.message, &vars),
        help: Some(catalog::render_template(&meta.help, &vars)).filter(|h| !h.is_empty()),
        contract: None,
        pointer: None,
        sql: None,
        fix: None,
        related: Vec::new(),
    }
}
