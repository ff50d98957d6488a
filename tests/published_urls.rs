//! The addresses platcheck prints (rule doc links in every output format, the
//! `$schema` modelines `init` writes) derive from one base, `docs_url` in
//! Cargo.toml, carry the version, and name files that the release tag holds.
mod common;
use platcheck::RuleId;
use platcheck::catalog::DOCS_BASE;
use std::path::Path;
use std::process::Command;

/// `docs_url` read from Cargo.toml independently of build.rs.
fn docs_url() -> String {
    let manifest = std::fs::read_to_string(common::root().join("Cargo.toml")).unwrap();
    let (_, table) = manifest
        .split_once("[package.metadata.platcheck]")
        .expect("Cargo.toml has [package.metadata.platcheck]");
    let line = table
        .lines()
        .find(|l| l.trim_start().starts_with("docs_url"))
        .expect("docs_url in [package.metadata.platcheck]");
    let (_, value) = line.split_once('=').unwrap();
    value.trim().trim_matches('"').to_string()
}

/// Splits a published URL into the path inside the repository at the tag,
/// checking the base and the version on the way.
fn repository_path(url: &str) -> &str {
    let base = format!("{}/v{}/", docs_url(), env!("CARGO_PKG_VERSION"));
    assert_eq!(format!("{DOCS_BASE}/"), base);
    url.strip_prefix(&base)
        .unwrap_or_else(|| panic!("{url} is not under {base}"))
}

#[test]
fn rule_doc_links_name_the_rule_files_of_this_version() {
    for rule in RuleId::ALL {
        let url = rule.url();
        let path = repository_path(&url);
        assert_eq!(path, rule.doc_path());
        let file = common::root().join(path);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            rule.doc_source(),
            "{url}: the published file is the embedded doc"
        );
    }
    assert!(RuleId::MG001.url().ends_with(&format!(
        "/v{}/rules/mg/MG001.md",
        env!("CARGO_PKG_VERSION")
    )));
}

#[test]
fn init_modelines_name_the_schemas_of_this_version() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_platcheck");
    let o = Command::new(bin)
        .arg("init")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = [
        ("contracts/clusters/example-db.yaml", "cluster"),
        ("contracts/events/example-created.yaml", "event-boundary"),
    ];
    for (file, kind) in written {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let first = text.lines().next().unwrap();
        let url = first
            .strip_prefix("# yaml-language-server: $schema=")
            .unwrap_or_else(|| panic!("{file}: no modeline: {first}"));
        let path = repository_path(url);
        assert_eq!(path, format!("schemas/{kind}.schema.json"));
        let printed = Command::new(bin).args(["schema", kind]).output().unwrap();
        assert_eq!(
            std::fs::read(common::root().join(path)).unwrap(),
            printed.stdout,
            "{url}: the published schema is the one the binary validates with"
        );
        assert!(!text.contains("@SCHEMAS@"), "{file}: placeholder left");
    }
}

/// `platcheck rule` prints the whole doc from the binary: no network, no
/// checkout (it runs from an empty directory, with every proxy pointed at a
/// closed loopback port so any attempt to fetch would fail loudly).
#[test]
fn rule_docs_work_offline() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["rule", "MG001"])
        .current_dir(dir.path())
        .env("HTTPS_PROXY", "http://127.0.0.1:9")
        .env("https_proxy", "http://127.0.0.1:9")
        .env("ALL_PROXY", "http://127.0.0.1:9")
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    for heading in platcheck::catalog::DOC_HEADINGS {
        assert!(out.contains(&format!("## {heading}")), "{heading}: {out}");
    }
    assert!(out.contains(&format!("Docs: {}", RuleId::MG001.url())));
    assert!(!Path::new(&dir.path().join("rules")).exists());
}
