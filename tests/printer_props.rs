//! Property test of every printer on random outcomes (the same checks as the
//! `printers` fuzz target, run by `cargo test`): no printer panics, JSON
//! parses, SARIF URIs are percent-encoded, gcc keeps one line per finding,
//! no raw control character reaches the terminal and CI formats, GitHub's
//! 10-per-level cap holds, JUnit has only XML 1.0 characters.
use platcheck::RuleId;
use platcheck::finding::{Finding, Severity};
use platcheck::outcome::{FailOn, Outcome, Summary, TodaySource};
use platcheck::output::{self, Format, human};
use platcheck::source::{LineCol, SourceFile};
use proptest::prelude::*;

type RawFinding = (
    usize,
    u8,
    usize,
    (u16, u16),
    String,
    Option<String>,
    Option<String>,
);

fn outcome(files: Vec<(String, String)>, raw: Vec<RawFinding>) -> Outcome {
    let files: Vec<SourceFile> = files
        .into_iter()
        .map(|(name, text)| SourceFile::new(name.clone(), name, &text))
        .collect();
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let mut findings = Vec::new();
    for (rule, sev, file, (a, b), message, help, pointer) in raw {
        let rule = RuleId::ALL[rule % RuleId::ALL.len()];
        let severity = [Severity::Error, Severity::Warning, Severity::Notice][usize::from(sev % 3)];
        match severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
        let (name, start, end, at, to) = match files.get(file) {
            Some(src) => {
                let len = src.text.len();
                let (a, b) = (usize::from(a.min(b)), usize::from(a.max(b)));
                let (s, e) = (a.min(len), b.min(len));
                (src.display.clone(), s, e, src.line_col(s), src.line_col(e))
            }
            None => {
                let lc = LineCol { line: 1, column: 1 };
                (format!("gone{file}\u{1b}.yaml"), 0, 0, lc, lc)
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
            contract: None,
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
        today: "2026-11-30".parse().unwrap(),
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

fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|c| {
        (c.is_control() && *c != '\n' && *c != '\t') || matches!(c, '\u{2028}' | '\u{2029}')
    })
}

fn check(o: &Outcome) {
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
        "{github}"
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
            for r in v["runs"][0]["results"].as_array().unwrap() {
                let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap();
                assert!(
                    uri.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                    "{uri:?}"
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

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}/[a-z ]{1,6}\\.yaml".prop_map(|s| s),
        any::<String>(),
        Just("x\n<b>|y\u{1b}[31m.md".to_string()),
        Just("a\\b%c é.sql".to_string()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "([a-z:\\- ]{0,20}\n){0,8}".prop_map(|s| s),
        Just("k\u{1b}]0;t\u{7}: 1\r\nlone\rcr\u{9b}\n".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn every_printer_is_well_formed_on_random_findings(
        files in prop::collection::vec((name(), text()), 0..3),
        raw in prop::collection::vec(
            (any::<usize>(), any::<u8>(), 0usize..4, (any::<u16>(), any::<u16>()), any::<String>(), any::<Option<String>>(), any::<Option<String>>()),
            0..30,
        ),
    ) {
        check(&outcome(files, raw));
    }
}
