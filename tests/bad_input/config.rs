//! The configuration that decides what is read: the size limit, include
//! and exclude globs with .gitignore, and an invalid glob located in the
//! config.
use super::{contract, one, write};
use crate::common;
use platcheck::RuleId;

#[test]
fn max_file_size_is_configurable() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\nmax_file_size: 1KiB\n");
    let mut text = contract("padded", "  region: x\n");
    text.push_str(&format!("# {}\n", "x".repeat(2000)));
    write(d, "padded.yaml", text);
    let outcome = common::check(&[d]);
    let f = one(&outcome.findings, "padded.yaml", RuleId::PC001);
    assert!(f.message.contains("1,024 byte limit"), "{}", f.message);
}

#[test]
fn include_and_exclude_globs_and_gitignore_are_honoured() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "platcheck.yaml",
        "version: 1\ninclude: [contracts/**]\nexclude: [contracts/archive/**]\n",
    );
    write(d, ".gitignore", "contracts/generated/\n");
    let bad = contract("x", "  ha:\n    rpoo: 0s\n");
    write(d, "contracts/a.yaml", bad.replace("name: x", "name: a"));
    write(
        d,
        "contracts/archive/b.yaml",
        bad.replace("name: x", "name: b"),
    );
    write(
        d,
        "contracts/generated/c.yaml",
        bad.replace("name: x", "name: c"),
    );
    write(d, "other/d.yaml", bad.replace("name: x", "name: d"));
    let outcome = common::check(&[d]);
    // Rule families judge these minimal contracts too; the typo (PC003) is
    // the one finding per checked file that this test counts.
    let typo = |f: &&platcheck::Finding| f.rule == RuleId::PC003;
    let files: Vec<&str> = outcome
        .findings
        .iter()
        .filter(typo)
        .map(|f| f.file.as_str())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with("contracts/a.yaml"));
    // An explicitly named file is checked even outside `include`.
    let explicit = common::check(&[&d.join("other/d.yaml")]);
    assert_eq!(explicit.findings.iter().filter(typo).count(), 1);
}

#[test]
fn an_invalid_glob_stops_the_run_with_its_place_in_the_config() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "platcheck.yaml",
        "version: 1\ninclude:\n  - contracts/**\n  - \"docs/[a-\"\nexclude: [\"x/{a,b\"]\n",
    );
    write(d, "contracts/a.yaml", contract("a", "  ha:\n    rpo: 0s\n"));
    let o = common::run_in(d, &["check", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("platcheck.yaml:4:5: invalid `include` glob `docs/[a-`: a character class `[` is never closed; expected a `]` after it"),
        "{err}"
    );
    // Once the include is fixed, the exclude is located the same way.
    write(d, "platcheck.yaml", "version: 1\nexclude: [\"x/{a,b\"]\n");
    let o = common::run_in(d, &["check", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("platcheck.yaml:2:11: invalid `exclude` glob `x/{a,b`: alternatives `{` are never closed; expected a `}`"),
        "{err}"
    );
}
