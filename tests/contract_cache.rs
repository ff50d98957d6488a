//! The cache of loaded contracts (`.platcheck_cache/`) used by runs that
//! name files: a cached run prints exactly what an uncached one prints, in
//! every state of the repository, and the cache stays inside it.
mod common;
use common::{copy_tree, root};
use std::path::Path;
use std::process::Output;

const EVENT: &str = "contracts/events/order-confirmed.yaml";
const CLUSTER: &str = "contracts/clusters/orders-db.yaml";

fn run(dir: &Path, cache: bool, args: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(args).current_dir(dir).env("NO_COLOR", "1");
    if cache {
        cmd.env_remove("PLATCHECK_NO_CACHE");
    } else {
        cmd.env("PLATCHECK_NO_CACHE", "1");
    }
    cmd.output().expect("binary runs")
}

/// The cached run's output and exit code, asserted equal to the uncached one's.
fn same_both_ways(dir: &Path, args: &[&str]) -> String {
    let uncached = run(dir, false, args);
    let cached = run(dir, true, args);
    assert_eq!(
        String::from_utf8_lossy(&cached.stdout),
        String::from_utf8_lossy(&uncached.stdout),
        "{args:?}"
    );
    assert_eq!(cached.status.code(), uncached.status.code(), "{args:?}");
    String::from_utf8_lossy(&cached.stdout).into_owned()
}

fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn cached_runs_print_what_uncached_runs_print() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_tree(
        &root().join("examples/clean"),
        dir,
        Some(".platcheck_cache"),
    );
    let args = ["check", "--format", "json", EVENT];

    let clean = same_both_ways(dir, &args);
    assert!(dir.join(".platcheck_cache/contracts.bin").is_file());
    let ignore = std::fs::read_to_string(dir.join(".platcheck_cache/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    // Twice from a warm cache.
    assert_eq!(same_both_ways(dir, &args), clean);

    // The named file changes: a new unknown key is reported.
    edit(dir, EVENT, "metadata:\n", "metadata:\n  colour: blue\n");
    let changed = same_both_ways(dir, &args);
    assert!(changed.contains("PC003"), "{changed}");

    // A file that is not named changes what the named one is judged against:
    // the cluster it names is gone.
    edit(dir, EVENT, "metadata:\n  colour: blue\n", "metadata:\n");
    edit(
        dir,
        CLUSTER,
        "name: orders-db\n",
        "name: orders-db-renamed\n",
    );
    let renamed = same_both_ways(dir, &args);
    assert_ne!(renamed, clean, "the renamed cluster must be noticed");

    // The config changes: still the uncached answer.
    edit(dir, "platcheck.yaml", "fail_on: error", "fail_on: warning");
    same_both_ways(dir, &args);
    same_both_ways(dir, &["check", CLUSTER]);
}

#[test]
fn whole_repository_runs_and_opted_out_runs_write_no_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_tree(
        &root().join("examples/clean"),
        dir,
        Some(".platcheck_cache"),
    );
    run(dir, true, &["check", "."]);
    assert!(!dir.join(".platcheck_cache").exists(), "a whole-repo run");
    run(dir, false, &["check", EVENT]);
    assert!(
        !dir.join(".platcheck_cache").exists(),
        "PLATCHECK_NO_CACHE=1"
    );
}

#[test]
fn a_cache_that_is_a_link_is_not_used() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_tree(
        &root().join("examples/clean"),
        dir,
        Some(".platcheck_cache"),
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), dir.join(".platcheck_cache")).unwrap();
        let o = run(dir, true, &["check", EVENT]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }
}
