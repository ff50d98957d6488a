//! The launch-checklist report: the checklist data agrees with the rules and
//! the schemas; each status has a fixture contract whose Markdown and JSON
//! are snapshotted; the JSON validates against its documented schema and
//! writes findings as output v1 does; every format escapes user text; on the
//! examples' edited copies, evidence decides each item (`evidence_*`). The
//! snapshot tests stay in this file so their snapshots keep their names.
#[path = "report/checklists.rs"]
mod checklists;
mod common;
#[path = "report/evidence_fields.rs"]
mod evidence_fields;
#[path = "report/evidence_findings.rs"]
mod evidence_findings;
#[path = "report/evidence_git.rs"]
mod evidence_git;
#[path = "report/formats.rs"]
mod formats;
#[path = "report/statuses.rs"]
mod statuses;

use platcheck::engine::{self, Outcome, WaivedBy};
use platcheck::report::model::{self, Report, Revision, RunFacts, Status};
use platcheck::report::{self, Format, Options};
use platcheck::settings::Overrides;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn run(dir: &Path, base: Option<&str>) -> Outcome {
    let overrides = Overrides {
        base: base.map(String::from),
        ..Overrides::default()
    };
    engine::run(&[PathBuf::from(".")], dir, &overrides).expect("run succeeds")
}

/// Facts that do not change from one checkout to the next: a fixed commit,
/// and one author for every waiver line.
fn facts(outcome: &Outcome) -> RunFacts {
    let mut f = RunFacts::of(outcome);
    f.revision = Some(Revision {
        commit: "0123456789abcdef0123456789abcdef01234567".into(),
        dirty: false,
    });
    let ws = &outcome.files;
    let mut lines = Vec::new();
    for w in &outcome.waived {
        lines.push(match &w.by {
            WaivedBy::Inline(i) => {
                let s = &outcome.suppressions[*i];
                (ws[s.file].display.clone(), s.line)
            }
            WaivedBy::Baseline { file, line } => (file.clone(), *line),
        });
    }
    for s in &outcome.suppressions {
        lines.push((ws[s.file].display.clone(), s.line));
    }
    for l in lines {
        f.authors
            .insert(l, "Dana Reviewer <dana@example.test>, 2026-11-02".into());
    }
    f
}

fn item<'a>(r: &'a Report, contract: &str, n: u32) -> &'a model::ItemResult<'a> {
    let c = r
        .contracts
        .iter()
        .find(|c| c.name == contract)
        .unwrap_or_else(|| panic!("no contract {contract}"));
    c.items.iter().find(|i| i.item.number == n).unwrap()
}

fn report_schema() -> jsonschema::Validator {
    let s: Value = serde_json::from_str(report::json::SCHEMA).unwrap();
    jsonschema::validator_for(&s).unwrap()
}

fn assert_valid(json: &str, what: &str) {
    let doc: Value = serde_json::from_str(json).unwrap();
    let v = report_schema();
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

/// The status each fixture exists for, with the item that shows it.
const FIXTURES: &[(&str, &str, u32, Status)] = &[
    ("met", "billing-db", 12, Status::Met),
    ("not-met", "billing-db", 10, Status::NotMet),
    ("missing-evidence", "billing-db", 12, Status::Missing),
    ("waived", "billing-db", 12, Status::Waived),
    ("expired-waiver", "billing-db", 12, Status::NotMet),
    ("not-checked", "invoice-issued", 5, Status::NotChecked),
    ("not-applicable", "billing-db", 4, Status::NotApplicable),
];

#[test]
fn each_status_has_a_fixture_with_markdown_and_json_snapshots() {
    for (name, contract, n, status) in FIXTURES {
        let dir = common::root().join("tests/report_fixtures").join(name);
        let outcome = run(&dir, None);
        let r = model::build(&outcome, facts(&outcome));
        let it = item(&r, contract, *n);
        assert_eq!(it.status, *status, "{name}: item {n}: {it:#?}");
        let md = report::render_model(Format::Markdown, &r, &Options::default());
        let json = report::render_model(Format::Json, &r, &Options::default());
        assert_valid(&json, name);
        common::versionless(|| {
            insta::assert_snapshot!(format!("status_{name}_markdown"), md);
            insta::assert_snapshot!(format!("status_{name}_json"), json);
        });
    }
}

fn violations() -> Outcome {
    engine::run(
        &[PathBuf::from("examples/violations")],
        &common::root(),
        &Overrides::default(),
    )
    .expect("run succeeds")
}

#[test]
fn markdown_report_of_violations() {
    let outcome = violations();
    let r = model::build(&outcome, facts(&outcome));
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("- **Date used:** 2026-11-30 (from platcheck.yaml)"));
    assert!(md.contains("- **Config:** examples/violations/platcheck.yaml"));
    common::versionless(|| insta::assert_snapshot!("violations_markdown", md));
    let again = violations();
    let again = report::render_model(
        Format::Markdown,
        &model::build(&again, facts(&again)),
        &Options::default(),
    );
    assert_eq!(md, again, "the report is deterministic");
    let json = report::render_model(Format::Json, &r, &Options::default());
    assert_valid(&json, "examples/violations");
    let doc: Value = serde_json::from_str(&json).unwrap();
    let statuses: std::collections::BTreeSet<&str> = doc["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["items"].as_array().unwrap())
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    let all: std::collections::BTreeSet<&str> = Status::ALL.iter().map(|s| s.slug()).collect();
    assert_eq!(statuses, all, "examples/violations shows every status");
}
