//! What the gate lets through: baselines (written, checked, stale, matched
//! from any directory), PR mode (`--changed-since`), suppression governance.
use super::{copy_violations, each, out, run};
use crate::common;
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn baseline_write_then_check_is_clean_and_stale_entries_are_noticed() {
    let tmp = copy_violations();
    let d = tmp.path();
    let w = run(d, &["baseline", "write", "base.json"], &[]);
    assert_eq!(
        w.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&w.stderr)
    );
    assert!(out(&w).contains("baseline entr"));
    let o = run(
        d,
        &["check", "--baseline", "base.json", "--format", "json"],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["findings"].as_array().unwrap().len(), 0, "{doc}");
    assert!(doc["summary"]["suppressed"].as_u64().unwrap() > 0);
    assert_eq!(o.status.code(), Some(0));
    // Fix one problem: the baseline entry for it is now stale.
    let f = d.join("contracts/legacy/search-db.yaml");
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace("    Placement: cross-az\n", "");
    std::fs::write(&f, text).unwrap();
    let o = run(
        d,
        &["check", "--baseline", "base.json", "--format", "json"],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{doc}");
    assert_eq!(findings[0]["rule"], "PC011");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("1 baseline entry is fixed")
    );
    assert_eq!(o.status.code(), Some(0), "a notice does not fail the gate");
    let broken = d.join("broken.json");
    std::fs::write(&broken, "{\"version\": 1, \"entries\": [}").unwrap();
    let o = run(d, &["check", "--baseline", "broken.json"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid baseline"));
}

#[test]
fn changed_since_reports_only_changed_files() {
    let repo = common::GitRepo::new();
    common::copy_tree(
        &common::root().join("examples/violations"),
        repo.path(),
        None,
    );
    repo.commit("base");
    let d = repo.path();
    let f = d.join("contracts/legacy/analytics-db.yaml");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, format!("{text}\n")).unwrap();
    let o = run(
        d,
        &["check", "--changed-since", "HEAD", "--format", "json"],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let files = each(&doc, "file");
    assert!(!files.is_empty());
    assert!(
        files
            .iter()
            .all(|f| *f == "contracts/legacy/analytics-db.yaml"),
        "{files:?}"
    );
    let bad = run(d, &["check", "--changed-since", "no-such-ref"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no-such-ref"));
    let outside = tempfile::tempdir().unwrap();
    let o = run(outside.path(), &["check", "--changed-since", "HEAD"], &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn suppression_governance() {
    let root = common::root();
    let fixture = "tests/fixtures/pc/PC010/good.yaml";
    let normal: Value =
        serde_json::from_slice(&run(&root, &["check", fixture, "--format", "json"], &[]).stdout)
            .unwrap();
    assert_eq!(normal["summary"]["suppressed"], 2);
    let audit: Value = serde_json::from_slice(
        &run(
            &root,
            &[
                "check",
                fixture,
                "--format",
                "json",
                "--no-inline-suppressions",
            ],
            &[],
        )
        .stdout,
    )
    .unwrap();
    let rules = each(&audit, "rule");
    assert!(
        rules.contains(&"PC003") && rules.contains(&"PC005"),
        "{rules:?}"
    );
    let listing = out(&run(
        &root,
        &["suppressions", "tests/fixtures/pc/PC010"],
        &[],
    ));
    let expected: PathBuf = ["tests", "fixtures", "pc", "PC010", "bad.yaml"]
        .iter()
        .collect();
    assert!(
        listing.contains(&format!("{}:9: PC003 [no-reason]", expected.display())),
        "{listing}"
    );
    assert!(
        listing.contains("[expired] migration in flight (until 2026-10-01)"),
        "{listing}"
    );
    assert!(
        listing.contains(
            "good.yaml:9: PC003 [matched] read by our internal tooling (until 2026-12-31)"
        ),
        "{listing}"
    );
    assert!(listing.contains("[unknown-rule]"), "{listing}");
    assert!(
        listing.contains("[unused]") || listing.contains("PC004 [matched]"),
        "{listing}"
    );
}

#[test]
fn baselines_match_from_any_directory_and_subsets_are_not_stale() {
    let tmp = copy_violations();
    let d = tmp.path();
    // Written from the repository root …
    let w = run(d, &["baseline", "write", "base.json"], &[]);
    assert_eq!(w.status.code(), Some(0));
    // … it still hides everything when platcheck runs from a subdirectory.
    let sub = d.join("contracts");
    let o = run(
        &sub,
        &[
            "check",
            "..",
            "--baseline",
            "../base.json",
            "--format",
            "json",
        ],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["findings"].as_array().unwrap().len(), 0, "{doc}");
    // Checking one folder says nothing about the entries of other folders
    // (migrations and docs here). Contracts are self-contained, so the
    // contracts folder alone gives the same contract findings.
    let o = run(
        d,
        &[
            "check",
            "contracts",
            "--baseline",
            "base.json",
            "--format",
            "json",
        ],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules = each(&doc, "rule");
    assert!(!rules.contains(&"PC011"), "{rules:?}");
}
