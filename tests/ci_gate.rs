//! The CI-gate outputs and modes, on the real binary: SARIF (validated
//! against the official 2.1.0 schema), GitHub annotations and step summary,
//! GitLab, JUnit, gcc; baselines; PR mode; suppression governance.
mod common;
use serde_json::Value;
use std::path::{Path, PathBuf};
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

/// A copy of examples/violations in a temp dir, so tests can edit it.
fn copy_violations() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&common::root().join("examples/violations"), tmp.path());
    tmp
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

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

fn git(dir: &Path, args: &[&str]) {
    let s = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        s.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&s.stderr)
    );
}

#[test]
fn changed_since_reports_only_changed_files() {
    let tmp = copy_violations();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "base"]);
    let f = d.join("contracts/legacy/analytics-db.yaml");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, format!("{text}\n")).unwrap();
    let o = run(
        d,
        &["check", "--changed-since", "HEAD", "--format", "json"],
        &[],
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
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
    let rules: Vec<&str> = audit["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
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
    let rules: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(!rules.contains(&"PC011"), "{rules:?}");
}
