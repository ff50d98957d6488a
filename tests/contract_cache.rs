//! The cache of loaded contracts (`.platcheck_cache/`) used by runs that
//! name files: a cached run prints exactly what an uncached one prints, in
//! every state of the repository, and the cache stays inside it.
mod common;
use common::cache_runs::{CLUSTER, EVENT, clean_example, run, same_both_ways};
use std::path::Path;

fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn cached_runs_print_what_uncached_runs_print() {
    let tmp = clean_example();
    let dir = tmp.path();
    let args = ["check", "--format", "json", EVENT];

    let clean = same_both_ways(dir, &args, "cold");
    assert!(dir.join(".platcheck_cache/contracts.bin").is_file());
    let ignore = std::fs::read_to_string(dir.join(".platcheck_cache/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    // Twice from a warm cache.
    assert_eq!(same_both_ways(dir, &args, "warm"), clean);

    // The named file changes: a new unknown key is reported.
    edit(dir, EVENT, "metadata:\n", "metadata:\n  colour: blue\n");
    let changed = same_both_ways(dir, &args, "an unknown key");
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
    let renamed = same_both_ways(dir, &args, "the cluster renamed");
    assert_ne!(renamed, clean, "the renamed cluster must be noticed");

    // The config changes: still the uncached answer.
    edit(dir, "platcheck.yaml", "fail_on: error", "fail_on: warning");
    same_both_ways(dir, &args, "the config changed");
    same_both_ways(dir, &["check", CLUSTER], "the cluster named");
}

#[test]
fn whole_repository_runs_and_opted_out_runs_write_no_cache() {
    let tmp = clean_example();
    let dir = tmp.path();
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
    let tmp = clean_example();
    let outside = tempfile::tempdir().unwrap();
    let dir = tmp.path();
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
