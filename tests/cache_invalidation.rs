//! The contract cache's stat keys (`contracts::cache::stat`): once every file
//! has settled and its stat is recorded, a file that is edited (even to the
//! same size with its mtime put back), touched, renamed or deleted is seen
//! as it is now — the cached run prints what an uncached run prints.
mod common;
use common::{copy_tree, root};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime};

const EVENT: &str = "contracts/events/order-confirmed.yaml";
const CLUSTER: &str = "contracts/clusters/orders-db.yaml";

fn run(dir: &Path, cache: bool) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(["check", "--format", "json", EVENT])
        .current_dir(dir)
        .env("NO_COLOR", "1");
    if cache {
        cmd.env_remove("PLATCHECK_NO_CACHE");
    } else {
        cmd.env("PLATCHECK_NO_CACHE", "1");
    }
    cmd.output().expect("binary runs")
}

/// The cached run's output, asserted equal to the uncached one's.
fn same_both_ways(dir: &Path, step: &str) -> String {
    let uncached = run(dir, false);
    let cached = run(dir, true);
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(text(&cached), text(&uncached), "{step}");
    assert_eq!(cached.status.code(), uncached.status.code(), "{step}");
    text(&cached)
}

fn set_mtime(p: &Path, t: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn settle() {
    // The cache records a file's stat only once it is 2 s old.
    std::thread::sleep(Duration::from_millis(2_100));
}

#[test]
fn edited_touched_renamed_and_deleted_files_are_seen_as_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_tree(
        &root().join("examples/clean"),
        dir,
        Some(".platcheck_cache"),
    );
    settle();
    let clean = same_both_ways(dir, "cold");
    let bin = dir.join(".platcheck_cache/contracts.bin");
    let cluster = dir.join(CLUSTER);
    let recorded = std::fs::read(&bin).unwrap();
    let abs = std::path::absolute(&cluster).unwrap();
    assert!(
        recorded
            .windows(abs.as_os_str().len())
            .any(|w| w == abs.as_os_str().as_encoded_bytes()),
        "the unnamed cluster's stat is recorded"
    );
    assert_eq!(same_both_ways(dir, "warm by stat"), clean);
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        recorded,
        "a run of hits rewrites nothing"
    );

    // Edit in place to the same size, and put the mtime back: only the
    // ctime changed. The event's cluster is now another name.
    let mtime = std::fs::metadata(&cluster).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&cluster).unwrap();
    let edited = text.replacen("name: orders-db\n", "name: orders-dx\n", 1);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&cluster, &edited).unwrap();
    set_mtime(&cluster, mtime);
    let renamed_cluster = same_both_ways(dir, "same size, same mtime");
    assert_ne!(renamed_cluster, clean, "the edit must be seen");
    assert!(renamed_cluster.contains("EV034"), "{renamed_cluster}");

    // Back to the old text, then touched: the content is what it was.
    std::fs::write(&cluster, &text).unwrap();
    settle();
    assert_eq!(same_both_ways(dir, "restored"), clean);
    set_mtime(&cluster, SystemTime::now() - Duration::from_secs(3_600));
    assert_eq!(same_both_ways(dir, "touched"), clean);

    // Renamed: the same text under another path.
    let moved = dir.join("contracts/clusters/orders-db-moved.yaml");
    std::fs::rename(&cluster, &moved).unwrap();
    assert_eq!(same_both_ways(dir, "renamed"), clean);
    // Deleted: the event's cluster is gone.
    std::fs::remove_file(&moved).unwrap();
    let deleted = same_both_ways(dir, "deleted");
    assert!(deleted.contains("EV034"), "{deleted}");

    // Recreated at the old path (a new inode): there again.
    std::fs::write(&cluster, &text).unwrap();
    assert_eq!(same_both_ways(dir, "recreated"), clean);
}
