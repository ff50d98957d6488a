//! A run that names one Markdown document gives it, and the config, the
//! findings the whole-repository run gives them: the per-document mirror
//! rules judge only the named documents (`mirror::judged`), the sibling
//! rules still compare every document, and a gate with inline tokens (whose
//! problems are reported against the config by every document it matches)
//! keeps every document in view.
mod common;
use common::{about, checked_files, copy_tree, root, run_at as run};
use std::path::Path;

/// Every Markdown file of `dir`, named alone, against the whole run; the
/// number of them that had mirror findings.
fn compare_docs(dir: &Path) -> usize {
    let whole = run(dir, ".");
    let mut with_mirror = 0;
    for f in checked_files(&whole).iter().filter(|f| f.ends_with(".md")) {
        let one = run(dir, f);
        assert_eq!(about(&one, f), about(&whole, f), "{f}");
        assert_eq!(
            about(&one, "platcheck.yaml"),
            about(&whole, "platcheck.yaml"),
            "{f}"
        );
        with_mirror += usize::from(about(&whole, f).iter().any(|l| l.contains(" MR0")));
    }
    with_mirror
}

#[test]
fn a_named_document_gets_what_the_whole_run_gives_it() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("examples/violations"), tmp.path(), None);
    let docs = compare_docs(tmp.path());
    assert!(docs >= 3, "only {docs} documents had mirror findings");
}

#[test]
fn inline_gate_tokens_are_still_reported_against_the_config() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_tree(&root().join("tests/fixtures/mr/MR004/bad"), dir, None);
    // `(` does not compile: an MR003 on the config, from the documents the
    // `go` gate matches, none of which is named below.
    std::fs::write(
        dir.join("platcheck.yaml"),
        "version: 1\nmirror_gates:\n  - name: py\n    files: \"python/*.md\"\n    tokens: [\"asyncio\"]\n  - name: go\n    files: \"go/*.md\"\n    tokens: [\"(\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("go/other.md"), "# Other\n\nasyncio here.\n").unwrap();
    compare_docs(dir);
    let whole = run(dir, ".");
    let config = about(&whole, "platcheck.yaml");
    assert!(config.iter().any(|l| l.contains(" MR003 ")), "{config:#?}");
    assert_eq!(
        about(&run(dir, "python/cache.md"), "platcheck.yaml"),
        config
    );
}
