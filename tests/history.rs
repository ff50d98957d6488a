//! The migration history as the migration tool sees it: every layout's
//! fixture (tests/fixtures/inputs/history/) replayed in the tool's order,
//! downs judged against the schema after their own up step, dumps as the
//! starting schema, transactions from the tool, bad input located, and the
//! order of files on disk irrelevant. The layout fixtures' tests stay in
//! this file so their snapshots keep their names.
mod common;
#[path = "history/layouts.rs"]
mod layouts;
#[path = "history/props.rs"]
mod props;
#[path = "history/transactions.rs"]
mod transactions;

use platcheck::engine::{self, Outcome};
use platcheck::settings::Overrides;
use platcheck::{Finding, RuleId};
use std::path::{Path, PathBuf};

const LAYOUTS: &[&str] = &[
    "golang-migrate",
    "popx",
    "diesel",
    "dbmate",
    "goose",
    "sql-migrate",
    "flyway",
    "liquibase",
    "sqitch",
    "plain",
    "schema-dump",
];

fn fixture(layout: &str) -> PathBuf {
    Path::new("tests/fixtures/inputs/history").join(layout)
}

fn of(out: &Outcome, rule: RuleId) -> Vec<&Finding> {
    out.findings.iter().filter(|f| f.rule == rule).collect()
}

/// The files `rule` was raised in, in finding order.
fn files_of(out: &Outcome, rule: RuleId) -> Vec<&str> {
    of(out, rule).iter().map(|f| f.file.as_str()).collect()
}

fn is_down(f: &Finding) -> bool {
    f.message.contains("judged against the schema after")
}

/// Runs `platcheck check .` in a temporary directory holding `files`.
fn run_dir(files: &[(&str, &str)]) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let overrides = Overrides {
        today: Some(common::today()),
        ..Overrides::default()
    };
    engine::run(&[PathBuf::from(".")], dir.path(), &overrides).expect("run succeeds")
}

#[test]
fn every_layout_fixture_replays_the_tools_history() {
    for layout in LAYOUTS {
        let out = common::check(&[&fixture(layout)]);
        common::versionless(|| {
            insta::assert_snapshot!(format!("layout_{layout}"), common::human(&out))
        });
        if *layout == "schema-dump" {
            continue;
        }
        // Step 2's up script casts `ref` to the type it already has and
        // widens `note`: no rewrite. With step 1's DROP TABLE replayed
        // before it, both would be reported as rewrites.
        let forward_rewrites: Vec<&Finding> = of(&out, RuleId::MG012)
            .into_iter()
            .filter(|f| !is_down(f) && !f.message.contains("integer → bigint"))
            .collect();
        assert!(
            forward_rewrites.is_empty(),
            "{layout}: a down script leaked into the forward chain: {forward_rewrites:#?}"
        );
        // Step 2's down script narrows `note` back: judged on the schema
        // after step 2, that is a rewrite.
        assert!(
            of(&out, RuleId::MG012)
                .iter()
                .any(|f| is_down(f) && f.message.contains("varchar(100) → varchar(50)")),
            "{layout}: the narrowing down script was not judged after its up step"
        );
        assert!(
            of(&out, RuleId::MG003).is_empty() || *layout == "plain",
            "{layout}: the tool's own transaction opt-out was not honoured"
        );
        assert!(
            of(&out, RuleId::PC000).is_empty(),
            "{layout}: internal error"
        );
    }
}

#[test]
fn flyway_orders_versions_as_numbers() {
    let out = common::check(&[&fixture("flyway")]);
    // V10 runs after V9, so it knows the column V9 added.
    let v10: Vec<_> = of(&out, RuleId::MG012)
        .into_iter()
        .filter(|f| f.file.ends_with("V10__widen_flags.sql"))
        .collect();
    assert_eq!(v10.len(), 1);
    assert!(
        v10[0].message.contains("integer → bigint"),
        "{}",
        v10[0].message
    );
}

#[test]
fn a_versioned_copy_alter_is_judged_against_the_dump_it_follows() {
    let out = common::check(&[&fixture("schema-dump")]);
    let copies = of(&out, RuleId::MG101);
    // cadence/: the dump (taken at v0.3) says BLOB; v0.4 makes it MEDIUMBLOB.
    // visibility/: the dump is the final state (MEDIUMBLOB) and must not be
    // replayed after versioned/v0.1/base.sql, which says BLOB.
    for tree in ["cadence", "visibility"] {
        let hit = copies.iter().find(|f| {
            f.file.contains(&format!("mysql/{tree}/versioned/v0.4/"))
                && f.message.contains("BLOB → MEDIUMBLOB")
        });
        assert!(hit.is_some(), "{tree}: {copies:#?}");
    }
    // v0.10 runs after v0.4 and v0.1 (natural order of version directories).
    assert!(
        copies
            .iter()
            .any(|f| f.file.contains("v0.10/") && f.message.contains("VARCHAR(255) → VARCHAR(64)"))
    );
    // A dump is never linted.
    assert!(out.findings.iter().all(|f| !f.file.ends_with("schema.sql")));
}
