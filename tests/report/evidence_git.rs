//! The report in a git repository: the cases the issue names decide their
//! items against `--base`, and git gives the revision, the dirty flag and
//! the waivers' authors.
use super::{item, run};
use crate::common;
use platcheck::RuleId;
use platcheck::report::model::{self, Revision, RunFacts, Status};
use platcheck::report::{self, Format, Options};
use std::path::PathBuf;

/// Starts a git repository holding a copy of examples/clean (as committed).
fn clean_repo() -> common::GitRepo {
    let repo = common::GitRepo::new();
    common::copy_tree(&common::root().join("examples/clean"), repo.path(), None);
    repo.commit("clean");
    repo
}

#[test]
fn the_issue_cases_decide_their_items() {
    let repo = clean_repo();
    let edit = |rel: &str, from: &str, to: &str| {
        let p = repo.path().join(rel);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{rel}: {from}");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "contracts/events/order-confirmed.yaml",
        "replication_factor: 3",
        "replication_factor: 1",
    );
    edit(
        "contracts/events/order-confirmed.yaml",
        "auto_commit: false",
        "auto_commit: true",
    );
    edit(
        "contracts/clusters/payments-db.yaml",
        "review_cadence: 30d\n    right_sizing",
        "review_cadence: 90d\n    right_sizing",
    );
    repo.write(
        "migrations/orders-db/0007_orders_region.sql",
        "ALTER TABLE orders ADD COLUMN region text NOT NULL DEFAULT 'eu';\nCREATE INDEX idx_orders_region ON orders (region);\n",
    );
    // A field added without a default breaks full compatibility.
    edit(
        "schemas/order_confirmed.avsc",
        r#"{"name": "currency", "type": "string", "default": "EUR"},"#,
        r#"{"name": "currency", "type": "string", "default": "EUR"},
    {"name": "region", "type": "string"},"#,
    );
    let outcome = repo.check(Some("HEAD")).unwrap();
    let r = model::build(&outcome, RunFacts::of(&outcome));
    let delivery = item(&r, "order-confirmed", 1);
    assert_eq!(delivery.status, Status::NotMet);
    assert!(delivery.findings.iter().any(|f| f.rule == RuleId::EV121));
    assert!(
        delivery
            .short
            .iter()
            .any(|s| s.label == "broker.replication_factor" && s.expected == "at least 3"),
        "{:?}",
        delivery.short
    );
    let schema_item = item(&r, "order-confirmed", 5);
    assert_eq!(schema_item.status, Status::NotMet);
    assert!(
        schema_item.findings.iter().any(|f| f.rule == RuleId::EV053),
        "EV053 on the schema file concerns its boundary: {:?}",
        r.outside
    );
    let mig = item(&r, "orders-db", 10);
    assert_eq!(mig.status, Status::NotMet);
    assert!(
        mig.findings
            .iter()
            .any(|f| f.rule.as_str().starts_with("MG")
                && f.severity == platcheck::finding::Severity::Error)
    );
    let cost = item(&r, "payments-db", 12);
    assert_eq!(cost.status, Status::NotMet);
    assert!(cost.text.contains("cost review cadence 90d"));
    assert!(!cost.text.contains("(monthly)"));
    assert!(r.outside.is_empty(), "{:?}", r.outside);
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("payload schemas compared with `--base HEAD`"));
}

#[test]
fn git_gives_the_revision_dirty_flag_and_waiver_authors() {
    let repo = common::waived_repo();
    let head = repo.git(&["rev-parse", "HEAD"]);
    let outcome = run(repo.path(), None);
    let facts = platcheck::cli::report_facts::gather(&outcome, &[PathBuf::from(".")], repo.path());
    assert_eq!(
        facts.revision,
        Some(Revision {
            commit: head.clone(),
            dirty: false
        })
    );
    let r = model::build(&outcome, facts);
    let w = &item(&r, "billing-db", 12).waivers[0];
    assert_eq!(
        w.author.as_deref(),
        Some("Dana Reviewer <dana@example.test>, 2026-11-02")
    );
    let b = &item(&r, "billing-db", 2).waivers[0];
    assert_eq!(
        b.author.as_deref(),
        Some("Dana Reviewer <dana@example.test>, 2026-11-02")
    );
    // An edit under the checked paths makes the revision dirty; a waiver
    // line not committed yet has no author.
    let p = repo.path().join("billing-db.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, format!("# reviewed\n{text}")).unwrap();
    let outcome = run(repo.path(), None);
    let facts = platcheck::cli::report_facts::gather(&outcome, &[PathBuf::from(".")], repo.path());
    assert_eq!(facts.revision.as_ref().map(|r| r.dirty), Some(true));
    let r = model::build(&outcome, facts);
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(
        md.contains(&format!("`{}` with uncommitted changes", &head[..12])),
        "{md:.400}"
    );
    // Outside git: no revision, and the report says so.
    let plain = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("tests/report_fixtures/met"),
        plain.path(),
        None,
    );
    let outcome = run(plain.path(), None);
    let facts = platcheck::cli::report_facts::gather(&outcome, &[PathBuf::from(".")], plain.path());
    assert_eq!(facts.revision, None);
    let md = report::render_model(
        Format::Markdown,
        &model::build(&outcome, facts),
        &Options::default(),
    );
    assert!(md.contains("- **Revision:** not a git repository"));
}
