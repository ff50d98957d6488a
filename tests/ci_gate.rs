//! The CI-gate outputs and modes, on the real binary: SARIF (validated
//! against the official 2.1.0 schema), GitHub annotations and step summary,
//! GitLab, JUnit, gcc; baselines; PR mode; suppression governance.
mod common;
#[path = "ci_gate/formats.rs"]
mod formats;
#[path = "ci_gate/modes.rs"]
mod modes;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_platcheck"));
    c.args(args)
        .current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn sarif_schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        common::root().join("tests/fixtures/inputs/sarif-2.1.0-rtm.5.json"),
    )
    .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("official SARIF schema compiles")
}

fn assert_valid_sarif(doc: &Value) {
    let v = sarif_schema();
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF invalid:\n{}", errors.join("\n"));
    for r in doc["runs"][0]["results"].as_array().unwrap() {
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1);
        assert!(region["startColumn"].as_u64().unwrap() >= 1);
    }
}

/// One field (`file`, `rule`) of every finding in a JSON report.
fn each<'d>(doc: &'d Value, key: &str) -> Vec<&'d str> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[key].as_str().unwrap())
        .collect()
}

/// A copy of examples/violations in a temp dir, so tests can edit it.
fn copy_violations() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("examples/violations"),
        tmp.path(),
        None,
    );
    tmp
}
