//! The report decided by evidence on the examples' edited copies: every
//! evidence field of examples/clean, deleted in turn, turns its item into
//! missing evidence, or not met when a rule fires on its absence (never
//! leaves it met); a value that fails its enum is invalid, not missing; a
//! missing referenced path decides only its field's item.
use super::{item, run, violations};
use crate::common;
use platcheck::RuleId;
use platcheck::report::model::{self, RunFacts, Status};
use platcheck::report::{self, Format, Options};
use serde_json::Value;
use std::path::PathBuf;

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
