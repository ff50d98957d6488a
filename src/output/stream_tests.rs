//! Outcomes for the printers' byte-identity tests, and the driver's own
//! tests: chunks per file, and a panic costing only the findings it is on.
use super::*;
use crate::catalog::RuleId;
use crate::finding::{ContractRef, LockFact, SqlFacts, StatementRef};
use crate::outcome::{FailOn, TodaySource};
use crate::source::SourceFile;

fn finding(rule: RuleId, severity: Severity, file: &str, line: usize, message: &str) -> Finding {
    Finding {
        rule,
        severity,
        file: file.into(),
        line,
        column: 3,
        end_line: line,
        end_column: 9,
        start: 0,
        end: 4,
        message: message.into(),
        help: None,
        contract: None,
        pointer: None,
        sql: None,
        fix: None,
        related: Vec::new(),
    }
}

fn outcome(findings: Vec<Finding>, notes: Vec<String>) -> Outcome {
    let files = vec![
        SourceFile::new("a.yaml", "a.yaml", "kind: Cluster\nname: \"x\u{1b}\"\n"),
        SourceFile::new("m/V1.sql", "m/V1.sql", "CREATE INDEX i ON t (c);\n"),
    ];
    outcome_of(files, findings, notes)
}

/// An outcome of these files and findings (in the order given), with its
/// summary counted and every other field at its plain value: the printers'
/// unit tests build theirs through this one.
pub(crate) fn outcome_of(
    files: Vec<SourceFile>,
    findings: Vec<Finding>,
    notes: Vec<String>,
) -> Outcome {
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    for f in &findings {
        isolate::bump(&mut summary, f.severity, 1);
    }
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
        notes,
        waived: Vec::new(),
        scope: None,
    }
}

/// No findings; one; several files with every optional field, strings that
/// need escaping, and notes.
pub(crate) fn outcomes() -> Vec<Outcome> {
    let mut sql = finding(
        RuleId::MG001,
        Severity::Error,
        "m/V1.sql",
        1,
        "blocks \"writes\"\n",
    );
    sql.sql = Some(SqlFacts {
        statement: StatementRef {
            index: 0,
            kind: "create_index".into(),
        },
        locks: vec![LockFact {
            relation: "t".into(),
            mode: "SHARE".into(),
        }],
        rewrite: false,
        scan: true,
    });
    sql.help = Some("use CONCURRENTLY\t\u{1b}[31m".into());
    let mut c = finding(
        RuleId::PC003,
        Severity::Warning,
        "a.yaml",
        2,
        "unknown key é",
    );
    c.contract = Some(Box::new(ContractRef {
        kind: "Cluster".into(),
        name: "x".into(),
    }));
    c.pointer = Some("/spec/unknown_key".into());
    let c2 = Finding {
        line: 1,
        severity: Severity::Notice,
        ..c.clone()
    };
    vec![
        outcome(Vec::new(), Vec::new()),
        outcome(vec![sql.clone()], Vec::new()),
        outcome(
            vec![c2, c, sql.clone(), sql],
            vec!["compatibility was not checked".into(), "\"quoted\"".into()],
        ),
    ]
}

/// A writer that takes one byte per call.
struct Trickle(Vec<u8>);

impl Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match buf.first() {
            Some(&b) => {
                self.0.push(b);
                Ok(1)
            }
            None => Ok(0),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What `write` puts out, checked to have repaired nothing.
pub(crate) fn written(p: &dyn Stream, o: &Outcome) -> String {
    let mut w = Trickle(Vec::new());
    let repairs = write(o, "test", p, &mut w).unwrap();
    assert!(repairs.replaced.is_empty() && !repairs.failed);
    assert_eq!(repairs.summary, o.summary);
    String::from_utf8(w.0).unwrap()
}

#[test]
fn files_are_consecutive_runs() {
    let o = &outcomes()[2];
    let ranges: Vec<_> = files(&o.findings).collect();
    assert_eq!(ranges, vec![0..2, 2..4]);
    assert_eq!(files(&[]).count(), 0);
}

/// Lists `rule line` per finding; panics on a message containing "boom".
struct Fragile;

impl Stream for Fragile {
    fn head(&self, _: &Outcome, out: &mut String) {
        out.push_str("head\n");
    }
    fn file(
        &self,
        _: &Outcome,
        fs: &[Finding],
        _: Option<usize>,
        written: usize,
        out: &mut String,
    ) {
        for (i, f) in fs.iter().enumerate() {
            // Output before the panic must not leak out.
            out.push_str(&format!("{} {} {}\n", written + i, f.rule, f.line));
            assert!(!f.message.contains("boom"), "the test printer fails");
        }
    }
    fn tail(&self, _: &Outcome, s: &Summary, _: usize, out: &mut String) {
        out.push_str(&format!("{} errors {} warnings\n", s.errors, s.warnings));
    }
}

#[test]
fn a_panic_costs_only_the_findings_it_is_on() {
    let mut o = outcomes().remove(2);
    o.findings[1].message = "boom".into();
    let mut w = Vec::new();
    let repairs = write(&o, "fragile", &Fragile, &mut w).unwrap();
    repairs.apply(&mut o, "fragile");
    // The warning at a.yaml:2 became a PC000 error at a.yaml:1:1, sorted in
    // before the notice at 1:3; the other file is untouched.
    assert_eq!(
        String::from_utf8(w).unwrap(),
        "head\n0 PC000 1\n1 PC003 1\n2 MG001 1\n3 MG001 1\n3 errors 0 warnings\n"
    );
    let rules: Vec<_> = o.findings.iter().map(|f| f.rule).collect();
    assert_eq!(
        rules,
        [RuleId::PC000, RuleId::PC003, RuleId::MG001, RuleId::MG001]
    );
    assert_eq!((o.summary.errors, o.summary.warnings), (3, 0));
    assert_eq!(o.findings[0].file, "a.yaml");
}

/// A file with more findings than a `BLOCK`, with controls in its text,
/// beside a file of grouped contract findings: written in blocks, each
/// printer's output is still the whole document's bytes.
#[test]
fn a_file_written_in_blocks_reads_as_one() {
    let n = 2 * BLOCK + 7;
    let text: String = (0..n).map(|i| format!("SELECT {i}; -- \u{1b}\n")).collect();
    let files = vec![
        SourceFile::new("a.yaml", "a.yaml", "kind: Cluster\nname: \"x\u{1b}\"\n"),
        SourceFile::new("m/V1.sql", "m/V1.sql", &text),
    ];
    let mut findings = outcomes()[2].findings[..2].to_vec();
    for i in 0..n {
        let mut f = finding(RuleId::MG001, Severity::Error, "m/V1.sql", i + 1, "blocks");
        f.column = 1;
        f.end_line = i + 1;
        f.start = text.lines().take(i).map(|l| l.len() + 1).sum();
        f.end = f.start + 6;
        f.help = Some(format!("help {i}\u{9b}"));
        findings.push(f);
    }
    let o = outcome_of(files, findings, Vec::new());
    let json = crate::output::json::Printer::new(&o);
    let sarif = crate::output::sarif::Printer::new(&o);
    let style = crate::output::human::Style {
        color: false,
        width: 80,
        quiet: false,
    };
    let human = crate::output::human::Printer::new(&o, style);
    for p in [&json as &dyn Stream, &sarif, &human] {
        assert!(p.in_blocks(&o.findings[2..]), "the SQL file may be cut");
        assert_eq!(written(p, &o), to_string(p, &o));
    }
    let cut = blocks(&json, &o.findings, 2..n + 2);
    assert_eq!(
        cut,
        [2..BLOCK + 2, BLOCK + 2..2 * BLOCK + 2, 2 * BLOCK + 2..n + 2]
    );
    // Contract findings are grouped across their file: never cut.
    assert!(!human.in_blocks(&o.findings[..2]));
    assert!(json.in_blocks(&o.findings[..2]));
}
