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
