//! Human output that fits the terminal: the width comes from COLUMNS (or
//! the terminal; a pipe is not wrapped), words are never split, diffs are
//! shown as diff prints them, the header is coloured by severity, repeated
//! findings of one rule on one contract are one report, and counts are
//! pluralised.
mod common;
use std::process::{Command, Output};

fn platcheck(args: &[&str], columns: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(args)
        .current_dir(common::root())
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    cmd.output().expect("binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn violations(columns: Option<&str>) -> String {
    out(&platcheck(
        &["check", "examples/violations", "--color", "never"],
        columns,
    ))
}

#[test]
fn columns_sets_the_width_and_a_pipe_is_not_wrapped() {
    let narrow = violations(Some("60"));
    let wide = violations(Some("200"));
    let piped = violations(None);
    let lines = |s: &str| s.lines().count();
    assert!(lines(&narrow) > lines(&wide), "COLUMNS changes the width");
    assert!(lines(&wide) >= lines(&piped));
    // Prose lines (the message under `×`) stay within 60 columns unless one
    // word is longer than the line.
    for line in narrow
        .lines()
        .filter(|l| l.starts_with("  │ ") || l.starts_with("  × "))
    {
        let longest_word = line.split(' ').map(|w| w.chars().count()).max().unwrap();
        assert!(
            line.chars().count() <= 60 || longest_word > 40,
            "wrapped past 60: {line}"
        );
    }
    // A message is one line when nothing asks for a width.
    assert!(
        piped.contains("(1) exactly-once claim of capture-card-payment lacks clause 5 (replay respects dedup): replay_respects_dedup is not declared; a DLQ replay could apply an effect twice\n"),
        "{piped}"
    );
}

#[test]
fn words_are_never_split() {
    let narrow = violations(Some("60"));
    // textwrap's default splits at hyphens and inside long paths.
    for line in narrow.lines() {
        let t = line.trim_end();
        assert!(
            !(t.ends_with('-') && t.chars().rev().nth(1).is_some_and(char::is_alphanumeric)),
            "split at a hyphen: {line}"
        );
        assert!(!t.ends_with("docs/"), "split inside a path: {line}");
    }
}

#[test]
fn unified_diffs_are_not_wrapped() {
    let narrow = violations(Some("60"));
    let doc = std::fs::read_to_string(
        common::root().join("examples/violations/docs/architecture/go/read-model-sync.md"),
    )
    .unwrap();
    let line = "Use this when a service keeps a read model (a projection) that is fed by events from another service's write side, and readers accept that the projection lags the source by a bounded amount.";
    assert!(doc.contains(line));
    assert!(
        narrow.contains(&format!("-{line}")),
        "the diff line is whole"
    );
}

#[test]
fn the_header_is_coloured_by_severity() {
    let o = out(&platcheck(
        &["check", "examples/violations", "--color", "always"],
        None,
    ));
    assert!(o.contains("\u{1b}[1;31merror [MG001]"), "red errors");
    assert!(o.contains("\u{1b}[1;33mwarning ["), "yellow warnings");
    assert!(o.contains("\u{1b}[1;36mnotice ["), "cyan notices");
}

#[test]
fn findings_of_one_rule_on_one_contract_are_one_report() {
    let o = violations(None);
    let header =
        "examples/violations/contracts/events/ev053-order-confirmed.yaml:67:7: error [EV071] ×2";
    assert!(o.contains(header), "{o}");
    let report = &o[o.find(header).unwrap()..];
    let report = &report[..report.find("docs: ").unwrap()];
    assert!(
        report.contains("2 findings on EventBoundary order-confirmed:"),
        "{report}"
    );
    assert!(
        report.contains("(1) error /spec/consumers/0/dlq/sequence_cases"),
        "{report}"
    );
    assert!(
        report.contains("(2) error /spec/consumers/0/dlq/fixtures"),
        "{report}"
    );
    // Machine formats keep one entry per finding.
    let json = out(&platcheck(
        &["check", "examples/violations", "--format", "json"],
        None,
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let n = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule"] == "EV071"
                && f["file"]
                    .as_str()
                    .unwrap()
                    .ends_with("ev053-order-confirmed.yaml")
        })
        .count();
    assert_eq!(n, 2, "{n}");
}

#[test]
fn counts_are_pluralised() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("platcheck.yaml"),
        "version: 1\nfail_on: sometimes\n",
    )
    .unwrap();
    let w = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["baseline", "write", "--select", "PC008"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = out(&w);
    assert!(
        text.starts_with("wrote 1 baseline entry to "),
        "{text}{}",
        String::from_utf8_lossy(&w.stderr)
    );
    let check = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args([
            "check",
            "--select",
            "PC008",
            "--baseline",
            ".platcheck-baseline.json",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out(&check).contains(": 0 errors, 0 warnings, 0 notices (1 suppressed)"),
        "{}",
        out(&check)
    );
}

/// A group's header shows, in its colour, the worst severity of the group,
/// not the first finding's (#18): a warning first, then an error.
#[test]
fn a_group_header_has_the_worst_severity_of_the_group() {
    use platcheck::RuleId;
    use platcheck::finding::{ContractRef, Finding, Severity};
    use platcheck::outcome::{FailOn, Outcome, Summary, TodaySource};
    use platcheck::output::human;
    use platcheck::source::SourceFile;
    let text = "kind: EventBoundary\nname: orders\nspec:\n  a: 1\n  b: 2\n";
    let src = SourceFile::new("c.yaml", "c.yaml", text);
    let at = |line: usize, severity: Severity, pointer: &str| {
        let start = src.line_start(line);
        Finding {
            rule: RuleId::EV071,
            severity,
            file: "c.yaml".into(),
            line,
            column: 3,
            end_line: line,
            end_column: 4,
            start: start + 2,
            end: start + 3,
            message: format!("{pointer} is missing"),
            help: None,
            contract: Some(Box::new(ContractRef {
                kind: "EventBoundary".into(),
                name: "orders".into(),
            })),
            pointer: Some(pointer.into()),
            sql: None,
            fix: None,
            related: Vec::new(),
        }
    };
    let findings = vec![
        at(4, Severity::Warning, "/spec/a"),
        at(5, Severity::Error, "/spec/b"),
    ];
    let outcome = Outcome {
        findings,
        summary: Summary {
            files: 1,
            errors: 1,
            warnings: 1,
            ..Summary::default()
        },
        today: "2026-11-30".parse().unwrap(),
        today_source: TodaySource::Flag,
        fail_on: FailOn::Error,
        root: ".".into(),
        baseline: None,
        config: None,
        base: None,
        changed_since: None,
        classes: vec![None],
        files: vec![src],
        contracts: Vec::new(),
        rules_off: Default::default(),
        suppressions: Vec::new(),
        notes: Vec::new(),
        waived: Vec::new(),
        scope: None,
    };
    let style = |color| human::Style {
        color,
        width: 0,
        quiet: true,
    };
    let plain = human::render(&outcome, style(false));
    assert!(
        plain.starts_with("c.yaml:4:3: error [EV071] ×2\n"),
        "{plain}"
    );
    // Each finding keeps its own severity in its label.
    assert!(plain.contains("(1) warning /spec/a"), "{plain}");
    assert!(plain.contains("(2) error /spec/b"), "{plain}");
    let coloured = human::render(&outcome, style(true));
    assert!(
        coloured
            .starts_with("\u{1b}[1mc.yaml:4:3:\u{1b}[0m \u{1b}[1;31merror [EV071] ×2\u{1b}[0m\n"),
        "{coloured:?}"
    );
}
