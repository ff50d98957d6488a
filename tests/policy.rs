//! The `policy:` switches of platcheck.yaml change what the rules accept,
//! in both directions, and a bad value is reported against the config.
mod common;
use platcheck::RuleId;
use platcheck::settings::Overrides;

/// Runs `platcheck check` in a temp repository holding `config` as
/// platcheck.yaml and the given rule fixtures; returns the rules raised.
fn run(config: &str, fixtures: &[&str]) -> Vec<(RuleId, String)> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), config).unwrap();
    for f in fixtures {
        let from = common::root().join("tests/fixtures").join(f);
        let name = f.replace('/', "-");
        std::fs::write(dir.path().join(name), std::fs::read(&from).unwrap()).unwrap();
    }
    let ov = Overrides {
        today: Some(common::today()),
        ..Overrides::default()
    };
    let outcome =
        platcheck::engine::run(&[dir.path().to_path_buf()], dir.path(), &ov).expect("run succeeds");
    outcome
        .findings
        .iter()
        .map(|f| (f.rule, f.message.clone()))
        .collect()
}

fn count(found: &[(RuleId, String)], rule: RuleId, needle: &str) -> usize {
    found
        .iter()
        .filter(|(r, m)| *r == rule && m.contains(needle))
        .count()
}

#[test]
fn max_cadence_is_the_configs_when_set() {
    let good = ["cl/CL012/good.yaml", "cl/CL061/good.yaml"];
    // The good fixtures declare exactly the defaults (365d, 180d).
    let found = run("version: 1\n", &good);
    assert_eq!(count(&found, RuleId::CL012, "policy maximum"), 0);
    assert_eq!(count(&found, RuleId::CL061, "policy maximum"), 0);
    let tight =
        "version: 1\npolicy:\n  max_cadence:\n    failover_test: 180d\n    restore_drill: 100d\n";
    let found = run(tight, &good);
    assert_eq!(
        count(&found, RuleId::CL012, "longer than the policy maximum 180d"),
        1
    );
    assert_eq!(
        count(&found, RuleId::CL061, "longer than the policy maximum 100d"),
        1
    );
    // Relaxed: the bad fixtures' 3y and 2y cadences pass.
    let loose =
        "version: 1\npolicy:\n  max_cadence:\n    failover_test: 3y\n    restore_drill: 2y\n";
    let found = run(loose, &["cl/CL012/bad.yaml", "cl/CL061/bad.yaml"]);
    assert_eq!(count(&found, RuleId::CL012, "policy maximum"), 0);
    assert_eq!(count(&found, RuleId::CL061, "policy maximum"), 0);
}

#[test]
fn consensus_across_regions_is_reported_when_the_policy_says_warn() {
    let fixture = ["cl/CL041/good.yaml"];
    assert_eq!(count(&run("version: 1\n", &fixture), RuleId::CL041, ""), 0);
    let warn = "version: 1\npolicy:\n  cross_region_consensus: warn\n";
    assert_eq!(count(&run(warn, &fixture), RuleId::CL041, ""), 1);
}

#[test]
fn a_bad_policy_value_is_a_located_config_problem() {
    let found = run(
        "version: 1\npolicy:\n  cross_region_consensus: maybe\n  max_cadence:\n    failover_test: soon\n",
        &[],
    );
    let config: Vec<_> = found
        .iter()
        .filter(|(r, _)| r.as_str().starts_with("PC"))
        .collect();
    assert!(config.len() >= 2);
}

#[test]
fn orchestration_by_steps_is_opt_in() {
    let fixture = ["ev/EV100/good.yaml"];
    assert_eq!(count(&run("version: 1\n", &fixture), RuleId::EV100, ""), 0);
    let steps = "version: 1\npolicy:\n  orchestration: invariants-or-steps\n";
    let found = run(steps, &fixture);
    // Six steps are over the default 5; five are not.
    assert_eq!(count(&found, RuleId::EV100, "has 6 steps, more than 5"), 1);
    assert_eq!(count(&found, RuleId::EV100, ""), 1);
    let four =
        "version: 1\npolicy:\n  orchestration: invariants-or-steps\n  orchestration_max_steps: 4\n";
    assert_eq!(count(&run(four, &fixture), RuleId::EV100, "more than 4"), 2);
}

/// EV053's fixtures, as `check_fixture` runs them, with `config` as their
/// platcheck.yaml.
fn ev053(which: &str, config: &str) -> Vec<(RuleId, String)> {
    let dir = common::root().join("tests/fixtures/ev/EV053").join(which);
    let repo = common::GitRepo::new();
    common::copy_tree(&dir.join("git-base"), repo.path(), None);
    repo.commit("base");
    common::copy_tree(&dir, repo.path(), Some("git-base"));
    repo.write("platcheck.yaml", config);
    let outcome = repo.check(Some("HEAD")).expect("run succeeds");
    outcome
        .findings
        .iter()
        .map(|f| (f.rule, f.message.clone()))
        .collect()
}

#[test]
fn additive_only_schema_evolution_rejects_what_the_mode_lets_through() {
    let base = "version: 1\ntoday: 2026-11-30\ninclude: [contracts/**]\n";
    // The good fixture adds a field with a default under `full`: compatible
    // in both directions, so neither reading reports it.
    assert_eq!(count(&ev053("good", base), RuleId::EV053, ""), 0);
    let strict = format!("{base}policy:\n  schema_evolution: additive-only\n");
    assert_eq!(count(&ev053("good", &strict), RuleId::EV053, ""), 0);
    // Under `backward`, removing a field and promoting int to long pass the
    // registry and fail the documents' reading.
    let repo = common::GitRepo::new();
    let avsc = |fields: &str| {
        format!("{{\"type\": \"record\", \"name\": \"OrderConfirmed\", \"fields\": [{fields}]}}\n")
    };
    repo.write(
        "schemas/order.avsc",
        &avsc(r#"{"name": "order_id", "type": "string"}, {"name": "quantity", "type": "int"}, {"name": "note", "type": "string"}"#),
    );
    let contract = std::fs::read_to_string(
        common::root().join("tests/fixtures/ev/EV053/good/contracts/order-confirmed.yaml"),
    )
    .unwrap()
    .replace("compatibility: full", "compatibility: backward")
    .replace("schemas/order_confirmed.avsc", "schemas/order.avsc");
    repo.write("contracts/order-confirmed.yaml", &contract);
    repo.write("platcheck.yaml", base);
    repo.commit("base");
    repo.write(
        "schemas/order.avsc",
        &avsc(r#"{"name": "order_id", "type": "string"}, {"name": "quantity", "type": "long"}"#),
    );
    let found = |config: &str| -> Vec<(RuleId, String)> {
        repo.write("platcheck.yaml", config);
        let outcome = repo.check(Some("HEAD")).expect("run succeeds");
        outcome
            .findings
            .iter()
            .map(|f| (f.rule, f.message.clone()))
            .collect()
    };
    assert_eq!(count(&found(base), RuleId::EV053, ""), 0);
    let strict_found = found(&strict);
    assert_eq!(
        count(
            &strict_found,
            RuleId::EV053,
            "additive-only (policy.schema_evolution)"
        ),
        2,
        "{strict_found:?}"
    );
}
