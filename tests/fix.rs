//! `platcheck fix`, end to end on the built binary: every fix before/after
//! (the `--diff` it prints, snapshotted), byte preservation of the rest,
//! idempotence (a second run changes nothing and `--diff` exits 0), the
//! fixed rule gone and no finding that was not there before.
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"16\"\n";
const BASE: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\n";

fn bin(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run platcheck");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// (rule, file) of every finding, as a multiset.
fn findings(dir: &Path) -> BTreeMap<(String, String), usize> {
    let (_, out, err) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let mut m = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        let k = (
            f["rule"].as_str().unwrap().to_string(),
            f["file"].as_str().unwrap().to_string(),
        );
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walk(dir) {
        out.insert(
            e.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/"),
            std::fs::read(&e).unwrap(),
        );
    }
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// The files a unified diff writes (its `+++ b/` lines).
fn diff_paths(diff: &str) -> Vec<String> {
    let mut v: Vec<String> = diff
        .lines()
        .filter_map(|l| l.strip_prefix("+++ b/"))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// The files that differ between two trees.
fn changed_paths(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect()
}

/// Lays out `files`, fixes them with `flags`, and returns the `--diff`
/// shown before the fix. Asserts the rule is gone, nothing new appeared,
/// and the fix is idempotent.
fn fixed(files: &[(&str, &str)], rule: &str, flags: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let before = findings(dir);
    assert!(
        before.keys().any(|(r, _)| r == rule),
        "{rule} is not flagged before: {before:?}"
    );
    let mut args = vec!["fix", "--diff"];
    args.extend(flags);
    args.push(".");
    let (rc, diff, err) = bin(dir, &args);
    assert_eq!(rc, 1, "--diff exits 1 when something would change: {err}");
    let untouched = tree(dir);
    let mut args = vec!["fix"];
    args.extend(flags);
    args.push(".");
    let (rc, out, err) = bin(dir, &args);
    assert!(rc == 0 || rc == 1, "fix: {out}{err}");
    assert_ne!(tree(dir), untouched, "fix wrote nothing");
    assert_eq!(
        diff_paths(&diff),
        changed_paths(&untouched, &tree(dir)),
        "--diff shows every file fix writes, over all its passes:\n{diff}"
    );
    let after = findings(dir);
    assert!(
        !after.keys().any(|(r, _)| r == rule),
        "{rule} still flagged after fix: {after:?}"
    );
    for (k, n) in &after {
        assert!(
            before.get(k).is_some_and(|b| b >= n),
            "new finding after fix: {k:?}\n{out}"
        );
    }
    // Idempotent: nothing more to do, and a second fix writes nothing.
    let once = tree(dir);
    let mut args = vec!["fix", "--diff"];
    args.extend(flags);
    args.push(".");
    let (rc, again, err) = bin(dir, &args);
    assert_eq!((rc, again.as_str()), (0, ""), "second --diff: {err}");
    let mut args = vec!["fix"];
    args.extend(flags);
    args.push(".");
    bin(dir, &args);
    assert_eq!(tree(dir), once, "a second fix changed files");
    diff
}
#[test]
fn check_fix_is_fix_and_a_machine_format_stays_parseable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(dir.join("platcheck.yaml"), PG).unwrap();
    std::fs::write(dir.join("migrations/V1__base.sql"), BASE).unwrap();
    std::fs::write(
        dir.join("migrations/V2__idx.sql"),
        "CREATE INDEX idx_c ON orders (customer_id);\n",
    )
    .unwrap();
    let (_, out, err) = bin(
        dir,
        &[
            "check",
            "--fix",
            "--format",
            "json",
            "--fail-on",
            "never",
            ".",
        ],
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule"] != "MG001"),
        "{out}"
    );
    let fixed = std::fs::read_to_string(dir.join("migrations/V2__idx.sql")).unwrap();
    assert!(
        fixed.contains("CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_c"),
        "{fixed}"
    );
}

#[path = "editor/fix_sql.rs"]
mod fix_sql;

#[path = "editor/fix_contracts.rs"]
mod fix_contracts;

#[path = "editor/fix_tools.rs"]
mod fix_tools;

#[path = "editor/fix_blocks.rs"]
mod fix_blocks;

#[path = "editor/fix_scratch.rs"]
mod fix_scratch;

#[path = "editor/fix_runs.rs"]
mod fix_runs;

#[path = "editor/fix_sqitch_revert.rs"]
mod fix_sqitch_revert;
