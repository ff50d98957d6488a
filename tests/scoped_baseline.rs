//! A run that names files stays scoped when a baseline is in effect: it
//! runs the rules only for what it can report on, says the same about each
//! named file as the whole run with the same baseline, and counts as stale
//! only the named files' baseline entries (issue 21's one-file run; before,
//! any baseline turned the scoping off).
mod common;
use common::{about, checked_files, output_text as text, run_in as platcheck};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `examples/violations` with its own baseline (the config points at it).
fn violations() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("examples/violations"),
        dir.path(),
        None,
    );
    let cfg = std::fs::read_to_string(dir.path().join("platcheck.yaml")).unwrap();
    assert!(cfg.contains("\nbaseline:"), "the example has a baseline");
    dir
}

#[test]
fn naming_one_file_with_a_baseline_reports_on_it_what_the_whole_run_does() {
    let dir = violations();
    let run = |p: &str| {
        platcheck::engine::run(
            &[PathBuf::from(p)],
            dir.path(),
            &platcheck::settings::Overrides::default(),
        )
        .unwrap()
    };
    let whole = run(".");
    assert!(whole.baseline.is_some());
    let files = checked_files(&whole);
    let mut compared = 0;
    let mut waived = 0;
    for f in &files {
        let expected = about(&whole, f);
        let named = run(f);
        assert_eq!(about(&named, f), expected, "{f}");
        // Nothing about another file but the config and the baseline (the
        // example's baseline has a stale entry for one contract file).
        let run_level = |x: &String| {
            Some(x) == named.config.as_ref() || x.as_str() == ".platcheck-baseline.json"
        };
        assert!(
            named
                .findings
                .iter()
                .all(|x| &x.file == f || run_level(&x.file)),
            "{f}: {:#?}",
            named.findings
        );
        compared += usize::from(!expected.is_empty());
        waived += expected.iter().filter(|l| l.starts_with("waived")).count();
    }
    assert!(compared >= 20, "only {compared} files had findings");
    assert!(waived >= 2, "the baseline hid only {waived} findings");
}

#[test]
fn with_a_baseline_a_named_migration_still_skips_the_contract_and_mirror_rules() {
    // A rule made to panic shows whether the run ran it: a run that names a
    // migration has no cluster and no document to report on, so it runs
    // neither CL001 nor MR001; naming a cluster runs CL001, a document MR001.
    let dir = violations();
    let run = |rule: &str, args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(args)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .env("PLATCHECK_INJECT_PANIC", format!("rule:{rule}"))
            .output()
            .expect("binary runs");
        text(&o)
    };
    let migration = "migrations/payments-db/V2__widen_amount.sql";
    for (rule, owner) in [
        ("CL001", "contracts/clusters/checkout-db.yaml"),
        ("MR001", "docs"),
    ] {
        let failed = format!("rule {rule} failed");
        let whole = run(rule, &["check", "."]);
        assert!(whole.contains(&failed), "{whole}");
        let named = run(rule, &["check", migration]);
        assert!(named.contains("1 file checked"), "{named}");
        assert!(!named.contains(&failed), "{named}");
        let owned = run(rule, &["check", owner]);
        assert!(owned.contains(&failed), "{owner}: {owned}");
    }
}

fn findings(dir: &Path, args: &[&str]) -> Vec<Value> {
    let o = platcheck(dir, args);
    let doc: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
    doc["findings"].as_array().unwrap().clone()
}

#[test]
fn only_the_named_files_baseline_entries_can_be_stale() {
    let dir = violations();
    let d = dir.path();
    let w = platcheck(d, &["baseline", "write", "base.json"]);
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    // Fix one recorded problem: its entry is stale.
    let f = d.join("contracts/legacy/search-db.yaml");
    let yaml = std::fs::read_to_string(&f).unwrap();
    assert!(yaml.contains("    Placement: cross-az\n"));
    std::fs::write(&f, yaml.replace("    Placement: cross-az\n", "")).unwrap();
    let base = ["--baseline", "base.json", "--format", "json"];
    let check = |named: &str| findings(d, &[&["check", named][..], &base[..]].concat());
    // Named, the fixed file gets the notice, counting its own entry only.
    let fixed = check("contracts/legacy/search-db.yaml");
    assert_eq!(fixed.len(), 1, "{fixed:#?}");
    assert_eq!(fixed[0]["rule"], "PC011");
    let message = fixed[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("1 baseline entry is fixed"),
        "{message}"
    );
    // Any other file: every entry is about a file the run did not judge
    // (the histories it did not replay included), so none is stale.
    for other in [
        "contracts/clusters/checkout-db.yaml",
        "migrations/payments-db/V2__widen_amount.sql",
        "docs",
    ] {
        let found = check(other);
        assert!(found.is_empty(), "{other}: {found:#?}");
    }
    // The whole run agrees on the count.
    let whole = check(".");
    assert_eq!(whole.len(), 1, "{whole:#?}");
    assert_eq!(whole[0]["message"].as_str().unwrap(), message);
}
