//! Random findings through every printer: none panics, and each output is
//! well formed for its reader — JSON parses, SARIF URIs are encoded, the
//! line formats keep one line per finding, no raw control character reaches
//! a terminal or CI log, GitHub's 10-per-level cap holds, XML has only the
//! characters XML 1.0 allows.
#![no_main]
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use platcheck::RuleId;
use platcheck::finding::{ContractRef, Finding, Severity};
use platcheck::outcome::{FailOn, Outcome, Summary, TodaySource};
use platcheck::output::{self, Format, human};
use platcheck::source::SourceFile;

fn outcome(u: &mut Unstructured) -> Result<Outcome> {
    let mut files = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        let display: String = u.arbitrary()?;
        let text: String = u.arbitrary()?;
        files.push(SourceFile::new(display.clone(), display, &text));
    }
    let mut findings = Vec::new();
    let mut summary = Summary::default();
    for _ in 0..u.int_in_range(0..=40)? {
        let rule = *u.choose(RuleId::ALL)?;
        let severity = *u.choose(&[Severity::Error, Severity::Warning, Severity::Notice])?;
        // A finding quotes one of the files, or names a path with no text.
        let (file, start, end, at, to) = if !files.is_empty() && u.arbitrary()? {
            let src = u.choose(&files)?;
            let len = src.text.len();
            let a = u.int_in_range(0..=len)?;
            let b = u.int_in_range(a..=len)?;
            (src.display.clone(), a, b, src.line_col(a), src.line_col(b))
        } else {
            let lc = platcheck::source::LineCol { line: 1, column: 1 };
            (u.arbitrary()?, 0, 0, lc, lc)
        };
        match severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
        findings.push(Finding {
            rule,
            severity,
            file,
            line: at.line,
            column: at.column,
            end_line: to.line,
            end_column: to.column,
            start,
            end,
            message: u.arbitrary()?,
            help: u.arbitrary()?,
            contract: if u.arbitrary()? {
                Some(ContractRef { kind: "Cluster".into(), name: u.arbitrary()? })
            } else {
                None
            },
            pointer: u.arbitrary()?,
            sql: None,
            fix: None,
            related: Vec::new(),
        });
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    summary.files = files.len();
    Ok(Outcome {
        findings,
        summary,
        today: "2026-11-30".parse().expect("a date"),
        today_source: TodaySource::Flag,
        fail_on: FailOn::Error,
        root: ".".into(),
        baseline: None,
        config: None,
        base: None,
        changed_since: None,
        classes: vec![None; files.len()],
        files,
        contracts: Vec::new(),
        rules_off: Default::default(),
        suppressions: Vec::new(),
        notes: Vec::new(),
        waived: Vec::new(),
        scope: None,
    })
}

/// Controls that must never reach a terminal or a CI log.
fn raw_control(text: &str) -> Option<char> {
    text.chars()
        .find(|c| (c.is_control() && *c != '\n' && *c != '\t') || matches!(c, '\u{2028}' | '\u{2029}'))
}

fn check(o: &Outcome) {
    let style = human::Style { color: false, width: 100, quiet: false };
    let human = output::render(Format::Human, o, style);
    assert_eq!(raw_control(&human), None, "human");

    let gcc = output::render(Format::Gcc, o, style);
    assert_eq!(raw_control(&gcc), None, "gcc");
    assert_eq!(gcc.lines().count(), o.findings.len(), "gcc: one line per finding");

    let github = output::render(Format::Github, o, style);
    assert_eq!(raw_control(&github), None, "github");
    for level in ["error", "warning", "notice"] {
        let n = github.lines().filter(|l| l.starts_with(&format!("::{level} "))).count();
        assert!(n <= 10, "github: {n} ::{level} annotations");
    }
    assert!(
        github.lines().all(|l| l.starts_with("::") || l.starts_with("platcheck: ")),
        "github: a line that is no workflow command"
    );
    let summary = output::github::step_summary(o);
    assert_eq!(raw_control(&summary), None, "step summary");
    for row in summary.lines().filter(|l| l.starts_with("| <code>")) {
        assert_eq!(row.matches(" | ").count(), 2, "step summary row: {row}");
        assert!(!row.contains('<') || row.matches('<').count() == row.matches("code>").count(), "raw HTML: {row}");
    }

    for f in [Format::Json, Format::Sarif, Format::Gitlab] {
        let text = output::render(f, o, style);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        if f == Format::Sarif {
            for r in v["runs"][0]["results"].as_array().expect("results") {
                let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .expect("uri");
                assert!(
                    uri.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                    "sarif uri {uri:?}"
                );
            }
        }
    }

    let junit = output::render(Format::Junit, o, style);
    assert!(
        junit.chars().all(|c| matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}')),
        "junit: a character XML 1.0 forbids"
    );
    for f in [Format::Markdown, Format::Html] {
        let _ = output::render(f, o, style);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(o) = outcome(&mut u) {
        check(&o);
    }
});
