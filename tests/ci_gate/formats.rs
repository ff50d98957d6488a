//! The report formats a CI gate reads: SARIF (validated against the
//! official 2.1.0 schema, fingerprints stable across edits above a
//! finding), GitHub annotations and step summary, GitLab, JUnit, gcc, and
//! several formats from one run.
use super::{assert_valid_sarif, copy_violations, out, run, sarif_schema};
use crate::common;
use serde_json::Value;
use std::path::Path;

#[test]
fn sarif_is_schema_valid_for_violations_and_clean_runs() {
    let root = common::root();
    for (dir, expect_results) in [("examples/violations", true), ("examples/clean", false)] {
        let o = run(&root, &["check", dir, "--format", "sarif"], &[]);
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_valid_sarif(&doc);
        // The validator is real: a zero line is rejected.
        if expect_results {
            let mut broken = doc.clone();
            broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
                0.into();
            assert!(!sarif_schema().is_valid(&broken));
        }
        let run0 = &doc["runs"][0];
        assert_eq!(run0["columnKind"], "unicodeCodePoints");
        let results = run0["results"].as_array().expect("results always present");
        assert_eq!(!results.is_empty(), expect_results, "{dir}");
        let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), platcheck::RuleId::ALL.len());
        assert!(
            rules
                .iter()
                .all(|r| r["helpUri"].is_string() && r["help"]["text"].is_string())
        );
    }
}

#[test]
fn fingerprints_survive_edits_above_the_finding() {
    let tmp = copy_violations();
    let sarif = |dir: &Path| -> Vec<(String, String)> {
        let o = run(dir, &["check", "--format", "sarif"], &[]);
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut v: Vec<(String, String)> = doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["ruleId"].as_str().unwrap().to_string(),
                    r["partialFingerprints"]["platcheckFingerprint/v1"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = sarif(tmp.path());
    let file = tmp.path().join("contracts/legacy/search-db.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        format!("# reviewed 2026-11-29\n# owner: search\n\n{text}"),
    )
    .unwrap();
    let after = sarif(tmp.path());
    assert_eq!(
        before, after,
        "fingerprints must not depend on line numbers"
    );
}

#[test]
fn github_annotations_are_capped_per_level_and_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    // The counts below are of PC findings; the rule families, which would
    // judge this deliberately broken contract too, are switched off.
    let mut config = String::from("version: 1\ntoday: 2026-11-30\nrules:\n");
    for rule in platcheck::RuleId::ALL
        .iter()
        .filter(|r| !r.as_str().starts_with("PC"))
    {
        config.push_str(&format!("  {rule}: off\n"));
    }
    // Unknown keys are errors by default; as warnings they fill a second level.
    config.push_str("  PC003: warning\n");
    std::fs::write(tmp.path().join("platcheck.yaml"), config).unwrap();
    // 12 unknown keys (warnings) and 11 bad enums (errors).
    let mut spec = String::from(
        "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: many\n  owner: t\nspec:\n",
    );
    for i in 0..12 {
        spec.push_str(&format!("  unknown_{i}: x\n"));
    }
    spec.push_str("  ha:\n");
    for key in ["topology", "failover", "replication", "placement"] {
        spec.push_str(&format!("    {key}: \"bad,value: 100%\"\n"));
    }
    spec = spec.replace("  owner: t\n", "  owner: t\n  lifecycle: retired\n");
    spec.push_str(
        "  read_replicas:\n    routing: nowhere\n  engine:\n    class: a\n    product: b\n",
    );
    spec.push_str("  sharding:\n    model: x\n    cross_shard_transactions: y\n  cross_region:\n    mode: z\n");
    std::fs::write(tmp.path().join("many.yaml"), spec).unwrap();
    let summary = tmp.path().join("summary.md");
    let o = run(
        tmp.path(),
        &["check", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    let text = out(&o);
    let errors = text.lines().filter(|l| l.starts_with("::error ")).count();
    let warnings = text.lines().filter(|l| l.starts_with("::warning ")).count();
    assert_eq!((errors, warnings), (10, 10), "{text}");
    let first_warning = text
        .lines()
        .position(|l| l.starts_with("::warning "))
        .unwrap();
    let last_error = text
        .lines()
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| l.starts_with("::error "))
        .unwrap();
    assert!(last_error < first_warning, "errors first");
    // The overflow notes count against the cap of their own level: 9
    // findings and one note per level, so GitHub drops nothing.
    assert!(
        text.contains("::error title=platcheck::2 more error findings are not annotated"),
        "{text}"
    );
    assert!(
        text.contains("::warning title=platcheck::3 more warning findings are not annotated"),
        "{text}"
    );
    assert!(!text.contains("::notice"), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("bad%2Cvalue") || l.contains("bad,value"))
        .unwrap();
    assert!(line.contains("100%25"), "data escapes %: {line}");
    assert!(line.contains(",title=PC004 schema-violation::"), "{line}");
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("## platcheck"), "{md}");
    assert!(md.contains("| [PC003](") && md.contains("| 12 |"), "{md}");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn gitlab_junit_and_gcc_formats() {
    let root = common::root();
    let gl: Value = serde_json::from_slice(
        &run(
            &root,
            &["check", "examples/violations", "--format", "gitlab"],
            &[],
        )
        .stdout,
    )
    .unwrap();
    let issues = gl.as_array().unwrap();
    assert!(!issues.is_empty());
    let mut prints: Vec<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    prints.sort();
    prints.dedup();
    assert_eq!(prints.len(), issues.len(), "fingerprints are unique");
    for i in issues {
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&i["severity"].as_str().unwrap())
        );
        assert!(
            i["location"]["positions"]["begin"]["line"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }
    let junit = out(&run(
        &root,
        &["check", "examples/violations", "--format", "junit"],
        &[],
    ));
    assert!(junit.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    assert_eq!(junit.matches("<testsuites").count(), 1);
    assert!(junit.contains("<failure message="));
    let cases = junit.matches("<testcase ").count();
    assert!(junit.contains(&format!("tests=\"{cases}\"")), "{junit}");
    let gcc = out(&run(
        &root,
        &["check", "examples/violations", "--format", "gcc"],
        &[],
    ));
    for l in gcc.lines() {
        let parts: Vec<&str> = l.splitn(5, ':').collect();
        assert_eq!(parts.len(), 5, "{l}");
        assert!(
            parts[1].parse::<usize>().unwrap() >= 1 && parts[2].parse::<usize>().unwrap() >= 1,
            "{l}"
        );
        assert!([" error", " warning", " note"].contains(&parts[3]), "{l}");
        assert!(parts[4].starts_with(" ["), "{l}");
    }
}

#[test]
fn one_run_prints_human_and_writes_sarif_and_json() {
    let tmp = tempfile::tempdir().unwrap();
    let sarif = tmp.path().join("out.sarif");
    let json = tmp.path().join("out.json");
    let o = run(
        &common::root(),
        &[
            "check",
            "examples/violations",
            "--output",
            &format!("sarif={}", sarif.display()),
            "-o",
            &format!("json={}", json.display()),
        ],
        &[],
    );
    assert!(out(&o).contains("files checked"));
    assert_valid_sarif(&serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap());
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["version"], 1);
    let bad = run(&common::root(), &["check", "--output", "yaml=x"], &[]);
    assert_eq!(bad.status.code(), Some(2));
}
