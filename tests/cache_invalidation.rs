//! The contract cache's stat keys (`contracts::cache::stat`): once every file
//! has settled and its stat is recorded, a file that is edited (even to the
//! same size with its mtime put back), touched, renamed or deleted is seen
//! as it is now — the cached run prints what an uncached run prints.
mod common;
use common::cache_runs::{CLUSTER, EVENT, clean_example, same_both_ways};
use std::path::Path;
use std::time::{Duration, SystemTime};

const ARGS: [&str; 4] = ["check", "--format", "json", EVENT];

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
    let tmp = clean_example();
    let dir = tmp.path();
    settle();
    let clean = same_both_ways(dir, &ARGS, "cold");
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
    assert_eq!(same_both_ways(dir, &ARGS, "warm by stat"), clean);
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
    let renamed_cluster = same_both_ways(dir, &ARGS, "same size, same mtime");
    assert_ne!(renamed_cluster, clean, "the edit must be seen");
    assert!(renamed_cluster.contains("EV034"), "{renamed_cluster}");

    // Back to the old text, then touched: the content is what it was.
    std::fs::write(&cluster, &text).unwrap();
    settle();
    assert_eq!(same_both_ways(dir, &ARGS, "restored"), clean);
    set_mtime(&cluster, SystemTime::now() - Duration::from_secs(3_600));
    assert_eq!(same_both_ways(dir, &ARGS, "touched"), clean);

    // Renamed: the same text under another path.
    let moved = dir.join("contracts/clusters/orders-db-moved.yaml");
    std::fs::rename(&cluster, &moved).unwrap();
    assert_eq!(same_both_ways(dir, &ARGS, "renamed"), clean);
    // Deleted: the event's cluster is gone.
    std::fs::remove_file(&moved).unwrap();
    let deleted = same_both_ways(dir, &ARGS, "deleted");
    assert!(deleted.contains("EV034"), "{deleted}");

    // Recreated at the old path (a new inode): there again.
    std::fs::write(&cluster, &text).unwrap();
    assert_eq!(same_both_ways(dir, &ARGS, "recreated"), clean);
}
