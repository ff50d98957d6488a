//! The catalogue cannot be half-added: {rule files} = {RuleId} = {registry
//! entries} = {fixture folders}; ids equal file stems; docs use only the
//! fixed headings, in order; templates only use known placeholders.
mod common;
use platcheck::RuleId;
use platcheck::catalog::{self, DOC_HEADINGS};
use std::collections::BTreeSet;

fn rule_files() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for fam in std::fs::read_dir(common::root().join("rules")).unwrap() {
        let fam = fam.unwrap().path();
        if !fam.is_dir() || fam.file_name().unwrap() == "checklists" {
            continue;
        }
        for f in std::fs::read_dir(&fam).unwrap() {
            let p = f.unwrap().path();
            assert_eq!(
                p.extension().unwrap(),
                "md",
                "{}: only rule docs belong here",
                p.display()
            );
            out.insert(p.file_stem().unwrap().to_string_lossy().to_string());
        }
    }
    out
}

fn fixture_dirs() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for fam in std::fs::read_dir(common::root().join("tests/fixtures")).unwrap() {
        let fam = fam.unwrap().path();
        if !fam.is_dir() || fam.file_name().unwrap() == "inputs" {
            continue;
        }
        for d in std::fs::read_dir(&fam).unwrap() {
            out.insert(d.unwrap().file_name().to_string_lossy().to_string());
        }
    }
    out
}

#[test]
fn ids_files_registry_and_fixtures_agree() {
    let ids: BTreeSet<String> = RuleId::ALL.iter().map(|r| r.to_string()).collect();
    let registry: Vec<String> = platcheck::rules::entries()
        .iter()
        .map(|e| e.id.to_string())
        .collect();
    let registry_set: BTreeSet<String> = registry.iter().cloned().collect();
    assert_eq!(
        registry.len(),
        registry_set.len(),
        "a rule is registered twice"
    );
    assert_eq!(rule_files(), ids, "rule files vs RuleId");
    assert_eq!(registry_set, ids, "registry vs RuleId");
    assert_eq!(fixture_dirs(), ids, "fixture folders vs RuleId");
}

#[test]
fn docs_are_well_formed() {
    let mut names = BTreeSet::new();
    for &rule in RuleId::ALL {
        let meta =
            catalog::parse_doc(rule, rule.doc_source()).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert!(
            names.insert(meta.name.clone()),
            "{rule}: duplicate name {}",
            meta.name
        );
        assert!(
            meta.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{rule}: name must be kebab-case"
        );
        let fam = rule.as_str()[..2].to_ascii_lowercase();
        assert!(
            rule.doc_path().starts_with(&format!("rules/{fam}/")),
            "{rule}: lives in rules/{fam}/"
        );
        let mut fence = false;
        let headings: Vec<&str> = meta
            .body
            .lines()
            .filter(|l| {
                if l.trim_start().starts_with("```") {
                    fence = !fence;
                }
                !fence
            })
            .filter_map(|l| l.strip_prefix("## "))
            .collect();
        assert_eq!(
            headings, DOC_HEADINGS,
            "{rule}: headings must be exactly the fixed list, in order"
        );
        let mut in_fence = false;
        for l in meta.body.lines() {
            if l.trim_start().starts_with("```") {
                in_fence = !in_fence;
            } else if !in_fence && l.starts_with('#') && !l.starts_with("## ") {
                assert!(l.starts_with("###"), "{rule}: stray heading `{l}`");
            }
        }
        assert!(!meta.source.is_empty(), "{rule}: source");
        assert!(
            !meta.message.trim().is_empty() && !meta.help.trim().is_empty(),
            "{rule}: message and help"
        );
    }
}

#[test]
fn rule_and_rules_commands_cover_the_catalogue() {
    for &rule in RuleId::ALL {
        assert_eq!(catalog::lookup(rule.as_str()), Some(rule));
        assert_eq!(catalog::lookup(&rule.meta().name), Some(rule));
        assert_eq!(
            catalog::lookup(&rule.as_str().to_ascii_lowercase()),
            Some(rule)
        );
    }
}
