//! End-to-end: the built binary, its exit codes and its commands.
mod common;
use std::path::Path;
use std::process::{Command, Output};

fn platcheck(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn clean_example_exits_zero_with_no_finding() {
    let o = platcheck(&common::root(), &["check", "examples/clean"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(": 0 errors, 0 warnings, 0 notices"), "{out}");
    assert!(
        out.contains("today is 2026-11-30 (platcheck.yaml)"),
        "{out}"
    );
}

#[test]
fn violations_exit_one_and_default_command_is_check() {
    let explicit = platcheck(
        &common::root(),
        &["check", "examples/violations", "--color", "never"],
    );
    let implicit = platcheck(
        &common::root(),
        &["examples/violations", "--color", "never"],
    );
    assert_eq!(explicit.status.code(), Some(1));
    assert_eq!(stdout(&explicit), stdout(&implicit));
}

#[test]
fn fail_on_controls_the_exit_code() {
    let root = common::root();
    let never = platcheck(
        &root,
        &["check", "examples/violations", "--fail-on", "never"],
    );
    assert_eq!(never.status.code(), Some(0));
    // CL013 is a warning, and its bad fixture is an otherwise complete
    // cluster: with --fail-on error a warning-only file passes.
    let warn_only = "tests/fixtures/cl/CL013/bad.yaml";
    assert_eq!(
        platcheck(&root, &["check", warn_only]).status.code(),
        Some(0)
    );
    assert_eq!(
        platcheck(&root, &["check", warn_only, "--fail-on", "warning"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn json_output_matches_the_documented_shape() {
    let o = platcheck(
        &common::root(),
        &["check", "examples/violations", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("one JSON document on stdout");
    assert_eq!(v["version"], 1);
    assert_eq!(v["tool"]["name"], "platcheck");
    assert_eq!(v["today"], "2026-11-30");
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        for key in [
            "rule",
            "name",
            "severity",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "message",
            "url",
        ] {
            assert!(f.get(key).is_some(), "missing {key} in {f}");
        }
        assert!(f["line"].as_u64().unwrap() >= 1 && f["column"].as_u64().unwrap() >= 1);
        assert!(!f["file"].as_str().unwrap().contains('\\'));
    }
    let s = &v["summary"];
    let total = s["errors"].as_u64().unwrap()
        + s["warnings"].as_u64().unwrap()
        + s["notices"].as_u64().unwrap();
    assert_eq!(total as usize, findings.len());
}

#[test]
fn today_flag_overrides_config_and_is_reported() {
    let o = platcheck(
        &common::root(),
        &["check", "examples/clean", "--today", "2026-12-01"],
    );
    assert!(stdout(&o).contains("today is 2026-12-01 (--today)"));
    let bad = platcheck(&common::root(), &["check", "--today", "2026-13-01"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a calendar date"));
}

#[test]
fn usage_and_config_errors_exit_two() {
    let root = common::root();
    let o = platcheck(&root, &["check", "--config", "does-not-exist.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does-not-exist.yaml"));
    assert_eq!(
        platcheck(&root, &["--format", "xml"]).status.code(),
        Some(2)
    );
    let o = platcheck(&root, &["rule", "PC999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown rule"));
}

#[test]
fn rule_and_rules_print_the_catalogue() {
    let o = platcheck(&common::root(), &["rule", "PC004"]);
    assert_eq!(o.status.code(), Some(0));
    let doc = stdout(&o);
    assert!(doc.starts_with("# PC004 schema-violation (error)"), "{doc}");
    assert!(doc.contains("## Why it matters"));
    let by_name = stdout(&platcheck(&common::root(), &["rule", "schema-violation"]));
    assert_eq!(doc, by_name);
    let table = stdout(&platcheck(&common::root(), &["rules"]));
    for id in platcheck::RuleId::ALL {
        assert!(
            table.lines().any(|l| l.starts_with(id.as_str())),
            "{id} missing from `rules`"
        );
    }
}

#[test]
fn schema_prints_embedded_json_schemas() {
    for kind in ["cluster", "event-boundary", "config"] {
        let o = platcheck(&common::root(), &["schema", kind]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["$schema"].as_str().unwrap().contains("2020-12"));
    }
    assert_eq!(
        platcheck(&common::root(), &["schema", "nope"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn init_scaffolds_a_clean_repo_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let o = platcheck(dir.path(), &["init"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(dir.path().join("platcheck.yaml").is_file());
    let check = platcheck(dir.path(), &["check", "--today", "2026-11-30"]);
    let out = stdout(&check);
    assert_eq!(check.status.code(), Some(0), "{out}");
    assert!(
        out.contains("files checked: 0 errors, 0 warnings, 0 notices"),
        "{out}"
    );
    let before = std::fs::read_to_string(dir.path().join("platcheck.yaml")).unwrap();
    let again = platcheck(dir.path(), &["init"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("refusing to overwrite"));
    assert_eq!(
        before,
        std::fs::read_to_string(dir.path().join("platcheck.yaml")).unwrap()
    );
}

#[test]
fn colour_follows_flag_and_no_color() {
    let root = common::root();
    let always = stdout(&platcheck(
        &root,
        &["check", "examples/violations", "--color", "always"],
    ));
    assert!(
        always.contains("\u{1b}["),
        "--color always emits ANSI escapes"
    );
    let piped = stdout(&platcheck(&root, &["check", "examples/violations"]));
    assert!(
        !piped.contains("\u{1b}["),
        "auto: no colour when stdout is not a terminal"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["check", "examples/violations", "--color", "auto"])
        .current_dir(&root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!stdout(&o).contains("\u{1b}["));
}

#[test]
fn quiet_drops_the_header() {
    let out = stdout(&platcheck(
        &common::root(),
        &["check", "examples/clean", "--quiet"],
    ));
    assert!(!out.contains("today is"));
}
