//! `Outcome::by_file`: the findings handed out file by file in the final
//! sort order, for printers that write one file at a time; `findings`
//! keeps its meaning.
mod common;
use platcheck::engine;
use platcheck::settings::Overrides;
use std::path::PathBuf;

#[test]
fn by_file_hands_out_every_finding_once_in_order_one_file_per_chunk() {
    let dir = common::root().join("examples/violations");
    let o = engine::run(&[PathBuf::from(".")], &dir, &Overrides::default()).unwrap();
    assert!(o.findings.len() > 100, "{}", o.findings.len());
    let chunks: Vec<_> = o.by_file().collect();
    let mut next = 0;
    for c in &chunks {
        assert_eq!(c.at, next, "{}", c.file);
        assert!(!c.findings.is_empty(), "{}", c.file);
        assert!(c.findings.iter().all(|f| f.file == c.file), "{}", c.file);
        assert_eq!(c.findings, &o.findings[c.at..c.at + c.findings.len()]);
        next += c.findings.len();
    }
    assert_eq!(next, o.findings.len());
    // One chunk per file: the files come in order and never twice.
    let files: Vec<&str> = chunks.iter().map(|c| c.file).collect();
    let mut sorted = files.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(files, sorted);
    assert!(files.len() > 5, "{files:?}");
}

#[test]
fn by_file_of_a_clean_run_is_empty() {
    let dir = common::root().join("examples/clean");
    let o = engine::run(&[PathBuf::from(".")], &dir, &Overrides::default()).unwrap();
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
    assert_eq!(o.by_file().count(), 0);
}
