//! The example repositories: `examples/clean` is the global false-positive
//! guard (zero findings from every rule); `examples/violations` raises every
//! rule, and its full human and JSON output is snapshotted.
mod common;
use platcheck::RuleId;
use std::collections::BTreeSet;
use std::path::Path;

/// Rules that cannot fire on a plain `check` of the example: each is covered
/// by its own end-to-end test instead.
const NEEDS_MORE_THAN_CHECK: &[&str] = &[
    // An internal error: only an injected crash raises it (tests/hardening.rs).
    "PC000", // A file named on the command line that is no contract (tests/rules.rs).
    "PC017",
];

#[test]
fn clean_example_has_zero_findings() {
    let outcome = common::check(&[Path::new("examples/clean")]);
    assert!(outcome.findings.is_empty(), "{}", common::human(&outcome));
}

#[test]
fn violations_example_raises_every_rule() {
    let outcome = common::check(&[Path::new("examples/violations")]);
    let fired: BTreeSet<RuleId> = outcome.findings.iter().map(|f| f.rule).collect();
    let missing: Vec<&str> = RuleId::ALL
        .iter()
        .filter(|r| !fired.contains(r) && !NEEDS_MORE_THAN_CHECK.contains(&r.as_str()))
        // The probe family compares with running systems: examples/probe
        // (tests/probe_e2e.rs) raises most of them; PR010, PR017, PR020,
        // PR030 and PR032 are raised by their own server tests (probe_*.rs).
        .filter(|r| !platcheck::rules::pr::covers(**r))
        .map(|r| r.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "rules that examples/violations does not raise: {missing:?}"
    );
}

#[test]
fn violations_output_snapshots() {
    let outcome = common::check(&[Path::new("examples/violations")]);
    common::versionless(|| {
        insta::assert_snapshot!("violations_human", common::human(&outcome));
        insta::assert_snapshot!("violations_json", common::json(&outcome));
    });
}
