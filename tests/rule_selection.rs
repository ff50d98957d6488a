//! Rule selection like ruff and buf: ids, names, families and prefixes
//! wherever a rule is named (config `rules:`, `select:`/`ignore:`,
//! per-file `overrides:`, `--select`/`--ignore`, suppressions, `rule`),
//! with a did-you-mean for every unknown name; and an enum value that fails
//! its schema is reported once, not reasoned about by semantic rules.
mod common;
use platcheck::RuleId;
use platcheck::finding::Severity;
use platcheck::settings::Overrides;
use std::collections::BTreeSet;
use std::path::Path;

const SQL: &str = "CREATE TABLE t (id int);\nCREATE TABLE u (id int);\n";
// MG001 (index without CONCURRENTLY), MG030 (no lock_timeout) on t.
const RISKY: &str = "CREATE INDEX i ON t (id);\n";

fn tree(config: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let w = |rel: &str, text: &str| {
        let p = d.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w(
        "platcheck.yaml",
        &format!("version: 1\ntoday: 2026-11-30\n{config}"),
    );
    w("migrations/app/0001_init.sql", SQL);
    w("migrations/app/0002_index.sql", RISKY);
    w("legacy/old/0001_init.sql", SQL);
    w("legacy/old/0002_index.sql", RISKY);
    d
}

fn run_with(dir: &Path, ov: Overrides) -> Vec<(RuleId, Severity, String)> {
    platcheck::engine::run(&[dir.to_path_buf()], dir, &ov)
        .unwrap()
        .findings
        .into_iter()
        .map(|f| (f.rule, f.severity, f.file))
        .collect()
}

fn run(config: &str) -> Vec<(RuleId, Severity, String)> {
    let d = tree(config);
    run_with(d.path(), Overrides::default())
}

fn rules(found: &[(RuleId, Severity, String)]) -> BTreeSet<&str> {
    found.iter().map(|(r, _, _)| r.as_str()).collect()
}

fn config_problems(config: &str) -> Vec<String> {
    let d = tree(config);
    platcheck::engine::run(&[d.path().to_path_buf()], d.path(), &Overrides::default())
        .unwrap()
        .findings
        .into_iter()
        .filter(|f| f.rule == RuleId::PC008)
        .map(|f| f.message)
        .collect()
}

#[test]
fn families_prefixes_and_names_set_severities() {
    let all = run("");
    assert!(
        rules(&all).contains("MG001") && rules(&all).contains("MG030"),
        "{all:?}"
    );
    // A family off, one of its rules back at a severity: the specific wins.
    let found = run("rules:\n  MG: off\n  create-index-without-concurrently: notice\n");
    assert_eq!(rules(&found), BTreeSet::from(["MG001"]), "{found:?}");
    assert!(found.iter().all(|(_, s, _)| *s == Severity::Notice));
    let found = run("rules:\n  MG03*: off\n");
    assert!(
        !rules(&found).iter().any(|r| r.starts_with("MG03")),
        "{found:?}"
    );
    assert!(rules(&found).contains("MG001"));
    // A bare prefix selects like ruff's: `MG03` is MG030–MG039.
    let found = run("rules:\n  MG03: off\n");
    assert!(
        !rules(&found).iter().any(|r| r.starts_with("MG03")),
        "{found:?}"
    );
    assert!(rules(&found).contains("MG001"), "{found:?}");
}

#[test]
fn a_bare_prefix_is_a_selector_not_a_typo() {
    // `CL12` names CL120–CL129 (ruff's reading); a real typo of CL012 that
    // is no prefix (`CLO12`, a letter O) is refused with the id it meant.
    assert!(config_problems("rules:\n  CL12: warning\n").is_empty());
    let msgs = config_problems("rules:\n  CLO12: warning\n");
    assert!(
        msgs.iter()
            .any(|m| m.contains("unknown rule `CLO12`; did you mean `CL012`?")),
        "{msgs:?}"
    );
    // A prefix no rule starts with is unknown too.
    let msgs = config_problems("ignore: [MG8]\n");
    assert!(
        msgs.iter().any(|m| m.contains("unknown rule `MG8`")),
        "{msgs:?}"
    );
    let d = tree("");
    let ov = Overrides {
        select: vec!["MG03".into()],
        ..Overrides::default()
    };
    let found = run_with(d.path(), ov);
    assert_eq!(
        rules(&found),
        BTreeSet::from(["MG030", "MG031"]),
        "{found:?}"
    );
}

#[test]
fn select_and_ignore_in_the_config_and_on_the_command_line() {
    let found = run("select: [MG001]\n");
    assert_eq!(rules(&found), BTreeSet::from(["MG001"]), "{found:?}");
    let found = run("ignore: [MG0*]\n");
    assert!(
        !rules(&found).iter().any(|r| r.starts_with("MG0")),
        "{found:?}"
    );
    // --select replaces the config's select; --ignore adds to its ignore.
    let d = tree("select: [MG001]\n");
    let ov = Overrides {
        select: vec!["MG03*".into()],
        ignore: vec!["missing-statement-timeout".into()],
        ..Overrides::default()
    };
    let found = run_with(d.path(), ov);
    assert_eq!(rules(&found), BTreeSet::from(["MG030"]), "{found:?}");
    let bad = Overrides {
        select: vec!["MG0O1".into()],
        ..Overrides::default()
    };
    let err = platcheck::engine::run(&[d.path().to_path_buf()], d.path(), &bad).unwrap_err();
    let platcheck::engine::RunError::Usage(msg) = err;
    assert!(msg.contains("did you mean `MG001`?"), "{msg}");
}

#[test]
fn per_file_overrides() {
    let found =
        run("overrides:\n  - files: \"legacy/**\"\n    rules: { MG001: off, MG030: notice }\n");
    let in_legacy: Vec<_> = found
        .iter()
        .filter(|(_, _, f)| f.contains("legacy/"))
        .collect();
    let in_app: Vec<_> = found
        .iter()
        .filter(|(_, _, f)| f.contains("migrations/"))
        .collect();
    assert!(
        in_legacy.iter().all(|(r, _, _)| *r != RuleId::MG001),
        "{in_legacy:?}"
    );
    assert!(
        in_legacy
            .iter()
            .any(|(r, s, _)| *r == RuleId::MG030 && *s == Severity::Notice)
    );
    assert!(
        in_app
            .iter()
            .any(|(r, s, _)| *r == RuleId::MG001 && *s == Severity::Error)
    );
    assert!(
        in_app
            .iter()
            .any(|(r, s, _)| *r == RuleId::MG030 && *s == Severity::Warning)
    );
}

#[test]
fn an_override_turns_on_a_rule_that_is_off_for_the_run() {
    for off in [
        "rules: { MG030: off }\n",
        "ignore: [MG030]\n",
        "select: [MG001]\n",
    ] {
        let found = run(&format!(
            "{off}overrides:\n  - files: \"legacy/**\"\n    rules: {{ MG030: error }}\n"
        ));
        let mg030: Vec<_> = found
            .iter()
            .filter(|(r, _, _)| *r == RuleId::MG030)
            .collect();
        assert_eq!(mg030.len(), 1, "{off}: {found:?}");
        assert!(mg030[0].2.contains("legacy/old/0002"), "{off}: {mg030:?}");
        assert_eq!(mg030[0].1, Severity::Error, "{off}");
    }
    // The command line has the last word: `--ignore` keeps it off everywhere.
    let d = tree("overrides:\n  - files: \"legacy/**\"\n    rules: { MG030: error }\n");
    let ov = Overrides {
        ignore: vec!["MG030".into()],
        ..Overrides::default()
    };
    let found = run_with(d.path(), ov);
    assert!(!rules(&found).contains("MG030"), "{found:?}");
    let ov = Overrides {
        select: vec!["MG001".into()],
        ..Overrides::default()
    };
    let found = run_with(d.path(), ov);
    assert_eq!(rules(&found), BTreeSet::from(["MG001"]), "{found:?}");
}

#[test]
fn unknown_rules_in_the_config_get_a_did_you_mean() {
    let msgs = config_problems("rules:\n  create-index-without-concurency: off\nignore: [MG3O]\n");
    assert!(
        msgs.iter()
            .any(|m| m.contains("did you mean `create-index-without-concurrently`?")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("unknown rule `MG3O`")),
        "{msgs:?}"
    );
}

#[test]
fn suppressions_accept_names_and_prefixes_and_suggest_ids() {
    let d = tree("");
    std::fs::write(
        d.path().join("migrations/app/0002_index.sql"),
        format!(
            "-- platcheck-ignore create-index-without-concurrently, MG03*: built at night\n{RISKY}"
        ),
    )
    .unwrap();
    std::fs::write(
        d.path().join("legacy/old/0002_index.sql"),
        format!("-- platcheck-ignore MG0O1: typo\n{RISKY}"),
    )
    .unwrap();
    let outcome =
        platcheck::engine::run(&[d.path().to_path_buf()], d.path(), &Overrides::default()).unwrap();
    let app: Vec<_> = outcome
        .findings
        .iter()
        .filter(|f| f.file.contains("migrations/app/0002"))
        .map(|f| f.rule)
        .collect();
    assert!(
        !app.contains(&RuleId::MG001) && !app.contains(&RuleId::MG030),
        "{app:?}"
    );
    let typo = outcome
        .findings
        .iter()
        .find(|f| f.rule == RuleId::PC010)
        .expect("PC010 for the typo");
    assert!(
        typo.message.contains("did you mean `MG001`?"),
        "{}",
        typo.message
    );
}

#[test]
fn the_rule_command_takes_names_families_and_prefixes() {
    let bin = env!("CARGO_BIN_EXE_platcheck");
    let run = |arg: &str| {
        std::process::Command::new(bin)
            .args(["rule", arg])
            .output()
            .unwrap()
    };
    let by_name = run("create-index-without-concurrently");
    assert!(String::from_utf8_lossy(&by_name.stdout).starts_with("# MG001 "));
    for p in ["MG03*", "MG03", "mg03"] {
        let prefix = String::from_utf8_lossy(&run(p).stdout).into_owned();
        assert!(
            prefix.contains("MG030") && prefix.contains("MG031") && !prefix.contains("MG001"),
            "{p}: {prefix}"
        );
    }
    let typo = run("MG0O1");
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("did you mean `MG001`?"));
}

#[test]
fn an_invalid_enum_value_is_reported_once_with_a_suggestion() {
    let d = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("examples/clean"), d.path(), None);
    let f = d.path().join("contracts/clusters/orders-db.yaml");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, text.replace("product: postgresql", "product: postgres")).unwrap();
    let outcome =
        platcheck::engine::run(std::slice::from_ref(&f), d.path(), &Overrides::default()).unwrap();
    let pc004: Vec<_> = outcome
        .findings
        .iter()
        .filter(|f| f.rule == RuleId::PC004)
        .collect();
    assert_eq!(pc004.len(), 1, "{:#?}", outcome.findings);
    assert!(
        pc004[0].message.contains("did you mean `postgresql`?"),
        "{}",
        pc004[0].message
    );
    // No rule reasons about `postgres` as if it were a product it knows.
    assert!(
        outcome
            .findings
            .iter()
            .all(|f| !f.message.contains("product postgres")),
        "{:#?}",
        outcome.findings
    );
}
