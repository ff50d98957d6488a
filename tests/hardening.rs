//! Scale and hardening: output independent of scheduling, and one crashing
//! file isolated from the rest of the run.
mod common;
use platcheck::RuleId;
use std::path::Path;
use std::process::Command;

fn json_with_threads(threads: usize, path: &Path) -> String {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| common::json(&common::check(&[path])))
}

#[test]
fn output_is_byte_identical_across_thread_counts() {
    for dir in ["examples/violations", "examples/clean", "tests/fixtures"] {
        let one = json_with_threads(1, Path::new(dir));
        let many = json_with_threads(8, Path::new(dir));
        assert_eq!(one, many, "{dir}: output depends on scheduling");
    }
}

#[test]
fn a_panicking_file_becomes_pc000_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("platcheck.yaml"), "version: 1\ntoday: 2026-11-30\n").unwrap();
    for name in ["a", "b", "c"] {
        let text = format!(
            "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: {name}-db\n  owner: t\nspec:\n  unknown_key: 1\n"
        );
        std::fs::write(d.join(format!("{name}.yaml")), text).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["check", "--format", "json"])
        .current_dir(d)
        .env("PLATCHECK_INJECT_PANIC", "b.yaml")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "an internal error makes the result incomplete"
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let pairs: Vec<(&str, &str)> = findings
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["rule"].as_str().unwrap()))
        .collect();
    assert!(
        pairs.contains(&("b.yaml", RuleId::PC000.as_str())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("a.yaml", "PC003")) && pairs.contains(&("c.yaml", "PC003")),
        "{pairs:?}"
    );
    let pc000 = findings.iter().find(|f| f["rule"] == "PC000").unwrap();
    assert!(
        pc000["message"]
            .as_str()
            .unwrap()
            .contains("internal error, please report")
    );
}
