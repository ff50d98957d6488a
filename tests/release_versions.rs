//! One version everywhere: Cargo.toml's version is what the pre-commit hook
//! pins, what the docs tell users to pin, and what the changelog describes;
//! and the release gates (notes.sh, check-tag.sh) refuse what they should.
mod common;
use platcheck::contracts::yaml::{self, Node};
use platcheck::source::SourceFile;
use std::path::Path;
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn run(program: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn every_pin_of_the_version_agrees_with_cargo_toml() {
    let o = run(
        "python3",
        &["ci/release/versions.py", "--check", VERSION],
        &common::root(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = run(
        "python3",
        &["ci/release/versions.py", "--check", "99.0.0"],
        &common::root(),
    );
    assert!(!o.status.success(), "the check can fail");
    assert!(text(&o).contains(".pre-commit-hooks.yaml:"));
    let changelog = std::fs::read_to_string(common::root().join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("\n## [{VERSION}] - ")),
        "CHANGELOG.md has a section for {VERSION}"
    );
}

#[test]
fn the_pre_commit_hooks_keep_their_ids_and_the_platcheck_hook_needs_no_rust() {
    let path = common::root().join(".pre-commit-hooks.yaml");
    let source = std::fs::read_to_string(&path).unwrap();
    let hooks = yaml::parse_documents(&SourceFile::new(".pre-commit-hooks.yaml", &path, &source))
        .unwrap()
        .remove(0);
    let hook = |id: &str| -> &Node {
        hooks
            .as_seq()
            .iter()
            .find(|h| h.get("id").and_then(Node::as_str) == Some(id))
            .unwrap_or_else(|| panic!("hook {id} is gone"))
    };
    let language = |id: &str| hook(id).get("language").and_then(Node::as_str).unwrap();
    assert_eq!(language("platcheck"), "python");
    assert_eq!(language("platcheck-system"), "system");
    assert_eq!(language("platcheck-cargo"), "rust");
    let deps: Vec<&str> = hook("platcheck")
        .get("additional_dependencies")
        .unwrap()
        .as_seq()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    assert_eq!(deps, [format!("platcheck=={VERSION}")]);
    for id in ["platcheck", "platcheck-system", "platcheck-cargo"] {
        assert_eq!(
            hook(id).get("entry").and_then(Node::as_str),
            Some("platcheck check")
        );
    }
    // pre-commit runs `pip install .` at the root: it must not be the maturin
    // project (that would need cargo) nor be called platcheck (it would
    // shadow the pinned wheel).
    let shim = std::fs::read_to_string(common::root().join("pyproject.toml")).unwrap();
    assert!(shim.contains("name = \"platcheck-pre-commit\""));
    assert!(shim.contains("build-backend = \"setuptools.build_meta\""));
    let wheel = std::fs::read_to_string(common::root().join("pypi/pyproject.toml")).unwrap();
    assert!(wheel.contains("name = \"platcheck\""));
    assert!(wheel.contains("bindings = \"bin\""));
    assert!(
        wheel.contains("dynamic = [\"version\"]"),
        "the version is Cargo.toml's"
    );
}

/// A copy of the release scripts with a changelog of our making, so the gates
/// are tested whatever state the real changelog is in.
fn scratch_release(changelog: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ci/release")).unwrap();
    common::copy_tree(
        &common::root().join("ci/release"),
        &dir.path().join("ci/release"),
        None,
    );
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "pyproject.toml",
        ".pre-commit-hooks.yaml",
        "README.md",
    ] {
        std::fs::copy(common::root().join(file), dir.path().join(file)).unwrap();
    }
    for dir_file in [
        "fuzz/Cargo.lock",
        "docs/github-action.md",
        "schemas/README.md",
        "editors/vscode/package.json",
        "editors/vscode/README.md",
    ] {
        let to = dir.path().join(dir_file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join(dir_file), to).unwrap();
    }
    std::fs::write(dir.path().join("CHANGELOG.md"), changelog).unwrap();
    dir
}

#[test]
fn release_notes_need_a_dated_section_and_the_tag_must_match() {
    let undated = format!("# Changelog\n\n## [{VERSION}] - Unreleased\n\n### Added\n\n- a\n");
    let dir = scratch_release(&undated);
    let o = run("bash", &["ci/release/notes.sh", VERSION], dir.path());
    assert!(!o.status.success());
    assert!(text(&o).contains("has no release date"), "{}", text(&o));

    let dated = format!(
        "# Changelog\n\n## [{VERSION}] - 2026-12-01\n\n### Added\n\n- a thing\n\n## [0.0.1] - 2026-01-01\n\n- old\n\n[{VERSION}]: https://example.invalid\n"
    );
    let dir = scratch_release(&dated);
    let o = run("bash", &["ci/release/notes.sh", VERSION], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let notes = String::from_utf8(o.stdout).unwrap();
    assert_eq!(notes.trim(), "### Added\n\n- a thing");

    let o = run(
        "bash",
        &["ci/release/check-tag.sh", &format!("v{VERSION}")],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = run("bash", &["ci/release/check-tag.sh", "v99.0.0"], dir.path());
    assert!(!o.status.success());
    assert!(
        text(&o).contains(&format!("Cargo.toml says {VERSION}")),
        "{}",
        text(&o)
    );
}

#[test]
fn versions_py_moves_every_pin_at_once() {
    let dir = scratch_release("# Changelog\n");
    let o = run(
        "python3",
        &["ci/release/versions.py", "--set", "7.8.9"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = run(
        "python3",
        &["ci/release/versions.py", "--check", "7.8.9"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let cargo = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
    assert!(cargo.contains("\nversion = \"7.8.9\"\n"));
    assert!(
        cargo.contains("insta = { version = \"1."),
        "dependency versions stay"
    );
    let hooks = std::fs::read_to_string(dir.path().join(".pre-commit-hooks.yaml")).unwrap();
    assert!(hooks.contains("\"platcheck==7.8.9\""));
    let docs = std::fs::read_to_string(dir.path().join("docs/github-action.md")).unwrap();
    assert!(docs.contains("# v7.8.9"));
    assert!(
        docs.contains("actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"),
        "other actions' pins stay"
    );
}
