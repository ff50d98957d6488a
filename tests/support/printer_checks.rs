//! The outcome generator and the checks shared by the `printers` fuzz target
//! (fuzz/fuzz_targets/printers.rs, bytes through `arbitrary`) and the
//! property test (tests/printer_props.rs, proptest): one copy, so the two
//! cannot drift apart. Both build plain tuples (`Files`, `RawFinding`),
//! which each generator knows how to make, and `outcome` turns them into
//! an `Outcome`; `check` renders it in every format and asserts each output
//! is well formed for its reader.
use platcheck::RuleId;
use platcheck::finding::{ContractRef, Finding, Severity};
use platcheck::outcome::{FailOn, Outcome, Summary, TodaySource};
use platcheck::output::{self, Format, human};
use platcheck::source::{LineCol, SourceFile};

/// Files as (display name, text).
pub type Files = Vec<(String, String)>;

/// A finding as ((rule, severity, file, (start, end)), (message, help,
/// pointer, contract name, path)): every number is reduced into range, and
/// `file` past the files names `path`, a file with no text.
pub type RawFinding = (
    (usize, u8, usize, (usize, usize)),
    (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    ),
);

pub fn outcome(files: Files, raw: Vec<RawFinding>) -> Outcome {
    let files: Vec<SourceFile> = files
        .into_iter()
        .map(|(name, text)| SourceFile::new(name.clone(), name, &text))
        .collect();
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let mut findings = Vec::new();
    for ((rule, sev, file, (a, b)), (message, help, pointer, contract, path)) in raw {
        let rule = RuleId::ALL[rule % RuleId::ALL.len()];
        let severity = [Severity::Error, Severity::Warning, Severity::Notice][usize::from(sev % 3)];
        match severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
        let (name, start, end, at, to) = match files.get(file % (files.len() + 1)) {
            Some(src) => {
                let len = src.text.len();
                let (a, b) = (a % (len + 1), b % (len + 1));
                let (s, e) = (a.min(b), a.max(b));
                (src.display.clone(), s, e, src.line_col(s), src.line_col(e))
            }
            None => {
                let lc = LineCol { line: 1, column: 1 };
                (path, 0, 0, lc, lc)
            }
        };
        findings.push(Finding {
            rule,
            severity,
            file: name,
            line: at.line,
            column: at.column,
            end_line: to.line,
            end_column: to.column,
            start,
            end,
            message,
            help,
            contract: contract.map(|name| {
                Box::new(ContractRef {
                    kind: "Cluster".into(),
                    name,
                })
            }),
            pointer,
            sql: None,
            fix: None,
            related: Vec::new(),
        });
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Outcome {
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
    }
}

/// Controls that must never reach a terminal or a CI log.
fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|c| {
        (c.is_control() && *c != '\n' && *c != '\t') || matches!(c, '\u{2028}' | '\u{2029}')
    })
}

pub fn check(o: &Outcome) {
    let style = human::Style {
        color: false,
        width: 100,
        quiet: false,
    };
    let human = output::render(Format::Human, o, style);
    assert_eq!(raw_control(&human), None, "human:\n{human}");
    let gcc = output::render(Format::Gcc, o, style);
    assert_eq!(raw_control(&gcc), None, "gcc:\n{gcc}");
    assert_eq!(
        gcc.lines().count(),
        o.findings.len(),
        "gcc: one line per finding"
    );
    let github = output::render(Format::Github, o, style);
    assert_eq!(raw_control(&github), None, "github:\n{github}");
    for level in ["error", "warning", "notice"] {
        let n = github
            .lines()
            .filter(|l| l.starts_with(&format!("::{level} ")))
            .count();
        assert!(n <= 10, "github: {n} ::{level} annotations");
    }
    assert!(
        github
            .lines()
            .all(|l| l.starts_with("::") || l.starts_with("platcheck: ")),
        "github: a line that is no workflow command:\n{github}"
    );
    let summary = output::github::step_summary(o);
    assert_eq!(raw_control(&summary), None, "step summary:\n{summary}");
    for row in summary.lines().filter(|l| l.starts_with("| <code>")) {
        assert_eq!(row.matches(" | ").count(), 2, "step summary row: {row}");
    }
    for f in [Format::Json, Format::Sarif, Format::Gitlab] {
        let text = output::render(f, o, style);
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        if f == Format::Sarif {
            for r in v["runs"][0]["results"].as_array().expect("results") {
                let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .expect("uri");
                assert!(
                    uri.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                    "sarif uri {uri:?}"
                );
            }
        }
    }
    let junit = output::render(Format::Junit, o, style);
    assert!(
        junit
            .chars()
            .all(|c| matches!(c, '\t' | '\n' | '\r')
                || (c >= ' ' && c != '\u{fffe}' && c != '\u{ffff}')),
        "junit: a character XML 1.0 forbids"
    );
    for f in [Format::Markdown, Format::Html] {
        let _ = output::render(f, o, style);
    }
}
