//! The launch report decided by evidence, on real inputs: every evidence
//! field of examples/clean, deleted in turn, turns its item into missing
//! evidence, or not met when a rule fires on its absence (never leaves it
//! met); the cases the issue names decide their
//! items; findings land on the contract they concern; git gives the
//! revision, the dirty flag and the waivers' authors.
mod common;
use platcheck::RuleId;
use platcheck::engine::{self, Outcome};
use platcheck::report::model::{self, Report, Revision, RunFacts, Status};
use platcheck::report::{self, Format, Options};
use platcheck::settings::Overrides;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn run(dir: &Path, base: Option<&str>) -> Outcome {
    let overrides = Overrides {
        base: base.map(String::from),
        ..Overrides::default()
    };
    engine::run(&[PathBuf::from(".")], dir, &overrides).expect("run succeeds")
}

fn item<'a>(r: &'a Report, contract: &str, n: u32) -> &'a model::ItemResult<'a> {
    let c = r
        .contracts
        .iter()
        .find(|c| c.name == contract)
        .unwrap_or_else(|| panic!("no contract {contract}"));
    c.items.iter().find(|i| i.item.number == n).unwrap()
}

fn violations() -> Outcome {
    engine::run(
        &[PathBuf::from("examples/violations")],
        &common::root(),
        &Overrides::default(),
    )
    .expect("run succeeds")
}

/// Deletes the value at `pointer` from a JSON document.
fn delete(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let key = key.replace("~1", "/").replace("~0", "~");
    match doc.pointer_mut(parent).unwrap() {
        Value::Object(m) => {
            m.remove(&key).unwrap_or_else(|| panic!("{pointer}"));
        }
        other => panic!("{pointer}: parent is {other}"),
    }
}

#[test]
fn deleting_each_evidence_field_of_clean_turns_its_item_into_missing_evidence() {
    let work = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("examples/clean"), work.path(), None);
    // Each contract is rewritten as JSON (YAML 1.2 reads it as written), so
    // a field can be deleted without editing YAML text.
    let outcome = run(work.path(), None);
    let mut docs: Vec<(PathBuf, Value)> = Vec::new();
    let mut fields: Vec<Vec<(u32, String, String)>> = Vec::new();
    {
        let r = model::build(&outcome, RunFacts::of(&outcome));
        for c in &outcome.contracts {
            let src = &outcome.files[c.file];
            docs.push((src.path.clone(), c.root.to_json()));
            let rc = r.contracts.iter().find(|x| x.name == c.name).unwrap();
            let mut list = Vec::new();
            for i in rc
                .items
                .iter()
                .filter(|i| i.status != Status::NotApplicable)
            {
                assert!(
                    matches!(i.status, Status::Met | Status::NotChecked),
                    "{} item {} is {:?} before any deletion",
                    c.name,
                    i.item.number,
                    i.status
                );
                for e in &i.evidence {
                    if !list
                        .iter()
                        .any(|(n, p, _)| *n == i.item.number && *p == e.pointer)
                    {
                        list.push((i.item.number, e.pointer.clone(), e.label.clone()));
                    }
                }
            }
            fields.push(list);
        }
    }
    let names: Vec<String> = outcome.contracts.iter().map(|c| c.name.clone()).collect();
    let write = |docs: &[(PathBuf, Value)]| {
        for (path, doc) in docs {
            std::fs::write(path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
        }
    };
    write(&docs);
    let unchanged = run(work.path(), None);
    assert!(unchanged.findings.is_empty(), "{:?}", unchanged.findings);
    let rounds = fields.iter().map(Vec::len).max().unwrap();
    let mut checked = 0;
    // Contracts are independent in this respect, so round k deletes the
    // k-th field of every contract at once.
    for k in 0..rounds {
        let mut round = docs.clone();
        let mut expect = Vec::new();
        for (ci, list) in fields.iter().enumerate() {
            if let Some((n, pointer, label)) = list.get(k) {
                delete(&mut round[ci].1, pointer);
                expect.push((ci, *n, pointer.clone(), label.clone()));
            }
        }
        write(&round);
        let o = run(work.path(), None);
        let r = model::build(&o, RunFacts::of(&o));
        for (ci, n, pointer, label) in expect {
            let it = item(&r, &names[ci], n);
            // A rule that fires on the absent field makes the item not met
            // (a known failure outranks missing evidence); it still lists
            // the field as missing.
            let not_met = it.status == Status::NotMet && !it.findings.is_empty();
            assert!(
                it.status == Status::Missing || not_met,
                "{}: deleting {label} left item {n} {:?}",
                names[ci],
                it.status
            );
            assert!(
                it.missing.iter().any(|m| m.pointer == pointer),
                "{}: item {n} lists {:?}, not {label}",
                names[ci],
                it.missing
            );
            checked += 1;
        }
    }
    write(&docs);
    assert!(checked > 300, "only {checked} fields deleted");
}

#[test]
fn clean_example_is_met_with_base_and_not_checked_without() {
    let with = run(&common::root().join("examples/clean"), Some("HEAD"));
    let r = model::build(&with, RunFacts::of(&with));
    for c in &r.contracts {
        for i in &c.items {
            assert!(
                matches!(i.status, Status::Met | Status::NotApplicable),
                "{} item {} is {:?}: {:?} {:?} {:?}",
                c.name,
                i.item.number,
                i.status,
                i.findings,
                i.missing,
                i.unchecked
            );
        }
    }
    let eo = item(&r, "order-confirmed", 10);
    assert_eq!(
        eo.reason.as_deref(),
        Some("no exactly-once claim: delivery is at-least-once")
    );
    let without = run(&common::root().join("examples/clean"), None);
    let r = model::build(&without, RunFacts::of(&without));
    let schema = item(&r, "order-confirmed", 5);
    assert_eq!(schema.status, Status::NotChecked);
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("not compared: `--base` was not given"));
}

#[test]
fn findings_land_on_the_contract_they_concern() {
    let outcome = violations();
    let r = model::build(&outcome, RunFacts::of(&outcome));
    // Migrations: the Cluster whose migrations.path holds the file.
    let mig = item(&r, "legacy-shop-db", 10);
    assert!(
        mig.findings
            .iter()
            .any(|f| f.rule == RuleId::MG001 && f.file.contains("migrations/legacy-shop-db/")),
        "{:?}",
        mig.findings
    );
    // Cross-file: both sides.
    assert!(
        item(&r, "ledger-entry-posted", 3)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR001)
    );
    assert!(
        item(&r, "ev-ledger-db", 2)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR001)
    );
    assert!(
        item(&r, "ev-ledger-db", 11)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR002)
    );
    // Offsets committed before processing: delivery semantics.
    let delivery = item(&r, "shipment-dispatched", 1);
    assert_eq!(delivery.status, Status::NotMet);
    for rule in [RuleId::EV120, RuleId::EV121] {
        assert!(delivery.findings.iter().any(|f| f.rule == rule), "{rule}");
    }
    // A payload schema finding: its boundary's schema item.
    let stock = r
        .contracts
        .iter()
        .find(|c| c.name == "stock-reserved" && c.file.contains("ev053-"))
        .unwrap();
    assert!(
        stock.items[4]
            .findings
            .iter()
            .any(|f| f.rule == RuleId::EV053)
    );
    // Nothing outside concerns a contract.
    let contract_files: Vec<&str> = r.contracts.iter().map(|c| c.file.as_str()).collect();
    for f in &r.outside {
        assert!(f.contract.is_none(), "{f:?}");
        assert!(
            !contract_files.contains(&f.file.as_str()),
            "{} {} is in a contract's file",
            f.rule,
            f.file
        );
        assert!(
            !(f.rule.as_str().starts_with("MG") && f.file.contains("legacy-shop-db")),
            "{f:?}"
        );
    }
    // Waivers in the example: inline, expired, baseline.
    let drills = item(&r, "ev-ledger-db", 7);
    assert_eq!(drills.status, Status::Waived);
    assert_eq!(drills.waivers[0].until.as_deref(), Some("2026-12-31"));
    let lifecycle = item(&r, "ev-ledger-db", 8);
    assert!(lifecycle.waivers.iter().any(|w| w.expired));
    assert_eq!(item(&r, "search-shards", 2).status, Status::Waived);
}

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
    let repo = common::GitRepo::new();
    common::copy_tree(
        &common::root().join("tests/report_fixtures/waived"),
        repo.path(),
        None,
    );
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(repo.path())
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Dana Reviewer")
            .env("GIT_AUTHOR_EMAIL", "dana@example.test")
            .env("GIT_AUTHOR_DATE", "2026-11-02T10:00:00Z")
            .env("GIT_COMMITTER_NAME", "ci")
            .env("GIT_COMMITTER_EMAIL", "ci@example.test")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["add", "-A"]);
    git(&[
        "-c",
        "commit.gpgsign=false",
        "commit",
        "-q",
        "-m",
        "waivers",
    ]);
    let head = git(&["rev-parse", "HEAD"]);
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

#[test]
fn a_finding_is_never_hidden_behind_missing_evidence() {
    let o = violations();
    let r = model::build(&o, RunFacts::of(&o));
    let mut both = 0;
    for c in &r.contracts {
        for i in &c.items {
            if i.status == Status::NotApplicable {
                continue;
            }
            if !i.findings.is_empty() {
                assert_eq!(
                    i.status,
                    Status::NotMet,
                    "{} item {}: {:?} with findings {:?}",
                    c.name,
                    i.item.number,
                    i.status,
                    i.findings
                );
                both += usize::from(!i.missing.is_empty());
            }
        }
    }
    // The case the precedence is about exists in the example: an item with
    // a finding and an absent field is not met and still lists the field.
    assert!(both > 0, "no item with both a finding and missing evidence");
}

#[test]
fn a_value_that_failed_its_enum_is_invalid_not_missing() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("examples/clean"), dir.path(), None);
    let f = dir.path().join("contracts/clusters/orders-db.yaml");
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains("product: postgresql"));
    std::fs::write(&f, text.replace("product: postgresql", "product: postgres")).unwrap();
    let outcome = run(dir.path(), None);
    let r = model::build(&outcome, RunFacts::of(&outcome));
    let engine = item(&r, "orders-db", 1);
    assert_eq!(engine.status, Status::NotMet);
    assert!(
        engine.missing.iter().all(|m| m.label != "engine.product"),
        "{:?}",
        engine.missing
    );
    assert_eq!(engine.invalid.len(), 1, "{:?}", engine.invalid);
    assert_eq!(engine.invalid[0].label, "engine.product");
    assert_eq!(engine.invalid[0].finding.rule, RuleId::PC004);
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(
        md.contains(
            "- invalid: `engine.product` (PC004, [L15](contracts/clusters/orders-db.yaml#L15))"
        ),
        "{md}"
    );
    assert!(md.contains("(PC004, invalid engine.product)"), "{md}");
    assert!(!md.contains("missing engine.product"), "{md}");
    let html = report::render_model(Format::Html, &r, &Options::default());
    assert!(
        html.contains("<li class=\"invalid\" data-field=\"/spec/engine/product\">invalid: "),
        "{html}"
    );
    // The JSON report lists it too (it had only the finding, under `findings`).
    let json: Value =
        serde_json::from_str(&report::render_model(Format::Json, &r, &Options::default())).unwrap();
    let items = json["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "orders-db")
        .unwrap()["items"]
        .as_array()
        .unwrap();
    let first = items.iter().find(|i| i["number"] == 1).unwrap();
    assert_eq!(first["invalid"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(first["invalid"][0]["field"], "engine.product");
    assert_eq!(first["invalid"][0]["pointer"], "/spec/engine/product");
    assert_eq!(first["invalid"][0]["finding"]["rule"], "PC004");
    assert_eq!(first["invalid"][0]["finding"]["line"], 15);
    assert!(
        first["missing"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["field"] != "engine.product"),
        "{first}"
    );
}

#[test]
fn a_missing_referenced_path_decides_only_the_item_of_its_field() {
    let o = violations();
    let r = model::build(&o, RunFacts::of(&o));
    let ev140 = |name: &str, n: u32| -> Vec<String> {
        item(&r, name, n)
            .findings
            .iter()
            .filter(|f| f.rule == RuleId::EV140)
            .map(|f| f.pointer.clone().unwrap_or_default())
            .collect()
    };
    // order-shipped: a repartition plan (item 4) and two replay tools (item 7).
    assert_eq!(
        ev140("order-shipped", 4),
        ["/spec/ordering/repartition_plan"]
    );
    let replay = ev140("order-shipped", 7);
    assert_eq!(replay.len(), 2, "{replay:?}");
    assert!(
        replay.iter().all(|p| p.ends_with("/dlq/replay_tool")),
        "{replay:?}"
    );
    assert_eq!(item(&r, "order-shipped", 7).status, Status::NotMet);
    assert!(ev140("order-shipped", 5).is_empty());
    // order-status-requested: its missing deprecation plan decides item 5.
    let schema = ev140("order-status-requested", 5);
    assert_eq!(schema, ["/spec/schema/deprecation_plan"]);
    // No EV140 finding is left outside the items.
    for c in &r.contracts {
        assert!(
            c.other.iter().all(|f| f.rule != RuleId::EV140),
            "{}",
            c.name
        );
    }
}
