//! Runs of the binary with and without the contract cache, compared: what
//! the cache tests (`contract_cache`, `cache_invalidation`) share.
use super::{copy_tree, root};
use std::path::Path;
use std::process::Output;

pub const EVENT: &str = "contracts/events/order-confirmed.yaml";
pub const CLUSTER: &str = "contracts/clusters/orders-db.yaml";

/// A copy of `examples/clean` without any cache a local run left in it.
pub fn clean_example() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("examples/clean"),
        tmp.path(),
        Some(".platcheck_cache"),
    );
    tmp
}

/// `platcheck <args>` in `dir`, the cache on or off (`PLATCHECK_NO_CACHE`).
pub fn run(dir: &Path, cache: bool, args: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(args).current_dir(dir).env("NO_COLOR", "1");
    if cache {
        cmd.env_remove("PLATCHECK_NO_CACHE");
    } else {
        cmd.env("PLATCHECK_NO_CACHE", "1");
    }
    cmd.output().expect("binary runs")
}

/// The cached run's output, asserted equal (with its exit code) to the
/// uncached one's; `step` says which state of the repository failed.
pub fn same_both_ways(dir: &Path, args: &[&str], step: &str) -> String {
    let uncached = run(dir, false, args);
    let cached = run(dir, true, args);
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(text(&cached), text(&uncached), "{step}: {args:?}");
    assert_eq!(
        cached.status.code(),
        uncached.status.code(),
        "{step}: {args:?}"
    );
    text(&cached)
}
