//! The "done when": `platcheck fix` on a copy of
//! `examples/violations` rewrites every fixable finding, and the rerun shows
//! those findings gone and none that were not there before.
mod common;
use platcheck::engine;
use platcheck::settings::Overrides;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Blocks an unsafe fix inserts with TODO values: what is found inside
/// them afterwards (the TODOs themselves, the checks the block now gets)
/// is what the placeholder is for, not a new problem.
const TODO_BLOCKS: &[&str] = &[
    "/spec/ha",
    "/spec/backup",
    "/spec/restore_drill",
    "/spec/engine",
    "/spec/lifecycle",
];

fn by_rule_and_file(dir: &Path) -> (BTreeMap<(String, String), usize>, usize) {
    let outcome = engine::run(&[dir.to_path_buf()], dir, &Overrides::default()).expect("run");
    let mut m = BTreeMap::new();
    for f in &outcome.findings {
        let in_todo = f
            .pointer
            .as_deref()
            .is_some_and(|p| TODO_BLOCKS.iter().any(|b| p.starts_with(b)))
            && outcome
                .files
                .iter()
                .find(|s| s.display == f.file)
                .is_some_and(|s| s.text.contains(": TODO"));
        if in_todo {
            continue;
        }
        *m.entry((f.rule.to_string(), f.file.clone())).or_insert(0) += 1;
    }
    let fixable = outcome.findings.iter().filter(|f| f.fix.is_some()).count();
    (m, fixable)
}

fn fix_copy(flags: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("examples/violations"),
        tmp.path(),
        None,
    );
    let dir = tmp.path();
    let (before, fixable) = by_rule_and_file(dir);
    assert!(
        fixable >= 20,
        "examples/violations has {fixable} fixable findings"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .arg("fix")
        .args(flags)
        .arg(".")
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "findings remain (not every rule has a fix): {text}"
    );
    assert!(text.starts_with("platcheck fix: applied "), "{text}");
    let (after, _) = by_rule_and_file(dir);
    for (k, n) in &after {
        assert!(
            before.get(k).is_some_and(|b| b >= n),
            "fix introduced {k:?} ({n}x)\n{text}"
        );
    }
    let gone: usize = before
        .iter()
        .map(|(k, n)| n - after.get(k).copied().unwrap_or(0).min(*n))
        .sum();
    assert!(gone >= 15, "only {gone} findings went away\n{text}");
    // Nothing fixable is left (in this mode): --diff has nothing to say.
    let again = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["fix", "--diff"])
        .args(flags)
        .arg(".")
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(
        (
            again.status.code(),
            String::from_utf8_lossy(&again.stdout).as_ref()
        ),
        (Some(0), ""),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

#[test]
fn fix_rewrites_every_safe_fixable_finding_of_the_violations_example() {
    fix_copy(&[]);
}

#[test]
fn fix_rewrites_every_fixable_finding_with_unsafe_fixes() {
    fix_copy(&["--unsafe-fixes"]);
}
