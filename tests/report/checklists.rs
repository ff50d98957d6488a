//! The checklist data against the rules, the contract schemas and the
//! reference checklists: every pointer, value and rule an item names exists.
use crate::common;
use platcheck::RuleId;
use platcheck::report::checklist::{self, Checklist, Cond, Input, When};
use platcheck::report::conditions;
use serde_json::Value;

fn schema(c: &Checklist) -> Value {
    let file = match c.kind.as_str() {
        "Cluster" => "schemas/cluster.schema.json",
        _ => "schemas/event-boundary.schema.json",
    };
    serde_json::from_str(&std::fs::read_to_string(common::root().join(file)).unwrap()).unwrap()
}

/// The schema node a pointer (with `*`) names, if the schema declares it.
fn in_schema<'a>(root: &'a Value, node: &'a Value, segments: &[&str]) -> Option<&'a Value> {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => root.pointer(r.trim_start_matches('#')).unwrap(),
        None => node,
    };
    let Some((head, rest)) = segments.split_first() else {
        return Some(node);
    };
    if *head == "*" {
        if let Some(items) = node.get("items") {
            return in_schema(root, items, rest);
        }
        let props = node.get("properties").and_then(Value::as_object)?;
        let all: Vec<&Value> = props
            .values()
            .filter_map(|v| in_schema(root, v, rest))
            .collect();
        return (all.len() == props.len()).then(|| all[0]);
    }
    in_schema(root, node.pointer(&format!("/properties/{head}"))?, rest)
}

fn check_pointer(root: &Value, base: &[&str], pointer: &str, at: &str) -> Option<Value> {
    let mut segs: Vec<&str> = if pointer.starts_with('/') {
        Vec::new()
    } else {
        base.to_vec()
    };
    segs.extend(pointer.trim_start_matches('/').split('/'));
    let node = in_schema(root, root, &segs);
    assert!(
        node.is_some(),
        "{at}: {pointer} is not a field of the schema"
    );
    node.cloned()
}

/// Every pointer and value a `when` names exists in the schema.
fn check_when(root: &Value, base: &[&str], when: &When, at: &str) {
    fn cond(root: &Value, base: &[&str], c: &Cond, at: &str) {
        match c {
            Cond::Any { any } => any.iter().for_each(|c| cond(root, base, c, at)),
            Cond::Field(f) => {
                let node = check_pointer(root, base, &f.field, at).unwrap();
                for list in [&f.one_of, &f.not_in].into_iter().flatten() {
                    let allowed = node.get("enum").or(node.pointer("/items/enum"));
                    if let Some(allowed) = allowed.and_then(Value::as_array) {
                        for v in list {
                            let v = v.to_string();
                            assert!(
                                allowed.iter().any(|a| a.as_str() == Some(v.as_str())),
                                "{at}: `{v}` is not a value of {}",
                                f.field
                            );
                        }
                    }
                }
            }
        }
    }
    when.conds().iter().for_each(|c| cond(root, base, c, at));
}

/// Rules that decide no checklist item on purpose: what they check is not
/// in either reference checklist. (EV140 serves several items, each with
/// `at:` the fields whose findings it takes.)
const NO_ITEM: &[&str] = &["EV110", "EV111", "EV112", "EV131", "EV132", "EV143"];

#[test]
fn checklists_agree_with_rules_schemas_and_reference() {
    let lists = checklist::all();
    for (path, _) in checklist::sources() {
        assert!(common::root().join(path).is_file(), "{path}");
    }
    let sizes: Vec<(&str, usize)> = lists
        .iter()
        .map(|c| (c.id.as_str(), c.items.len()))
        .collect();
    // The reference's checklists have 12 and 11 items.
    assert_eq!(sizes, [("data-platform", 12), ("event-boundary", 11)]);
    for c in lists {
        let (path, _) = checklist::sources()
            .iter()
            .find(|(p, _)| p.ends_with(&format!("/{}.yaml", c.id)))
            .unwrap_or_else(|| panic!("checklist {} is not in a file named after it", c.id));
        assert!(c.kind().is_some(), "{path}: kind {}", c.kind);
        let numbers: Vec<u32> = c.items.iter().map(|i| i.number).collect();
        assert_eq!(
            numbers,
            (1..=c.items.len() as u32).collect::<Vec<_>>(),
            "{path}"
        );
        // A rule serving several items takes disjoint `at:` windows in each.
        assert_eq!(checklist::at_overlaps(c), Vec::<String>::new(), "{path}");
        let root = schema(c);
        let mut seen: Vec<(RuleId, u32)> = Vec::new();
        for item in &c.items {
            let at = format!("{path} item {}", item.number);
            assert!(
                item.source
                    .starts_with(&format!("checklist item {}", item.number)),
                "{at}: the source names the reference checklist's item first"
            );
            assert!(!item.evidence.is_empty(), "{at}: no evidence declared");
            assert!(!item.rules.is_empty(), "{at}: no rule must not fire");
            for f in item.fields() {
                let segs: Vec<&str> = f.field.trim_start_matches('/').split('/').collect();
                check_pointer(&root, &[], &f.field, &at);
                // Relative conditions read the element of the last `*`.
                let star = segs.iter().rposition(|s| *s == "*").map_or(0, |i| i + 1);
                if let Some(w) = &f.when {
                    check_when(&root, &segs[..star], w, &at);
                }
                if let Some(p) = &f.fresh_within {
                    check_pointer(&root, &segs[..segs.len() - 1], p, &at);
                }
                if let Some(d) = &f.at_most {
                    platcheck::contracts::units::Duration::parse(d).unwrap();
                }
            }
            for need in &item.needs {
                if let Some(w) = &need.when {
                    check_when(&root, &[], w, &at);
                }
                assert!(!need.what.is_empty(), "{at}");
                let kind_ok = match need.input {
                    Input::Base => c.kind == "EventBoundary",
                    Input::MigrationFiles => c.kind == "Cluster",
                };
                assert!(kind_ok, "{at}: input {:?} on a {}", need.input, c.kind);
            }
            for spec in &item.rules {
                let ids = spec.expand();
                assert!(!ids.is_empty(), "{at}: `{}` names no rule", spec.pattern());
                for p in spec.via() {
                    check_pointer(
                        &schema(lists.iter().find(|o| o.kind != c.kind).unwrap()),
                        &[],
                        p,
                        &at,
                    );
                }
                for p in spec.at() {
                    check_pointer(&root, &[], p, &at);
                }
                for id in ids {
                    // A rule with `at:` may serve several items, each at
                    // its own fields; otherwise one item decides it.
                    if let Some((_, other)) = seen.iter().find(|(r, _)| *r == id)
                        && spec.at().is_empty()
                    {
                        panic!("{at}: {id} already decides item {other}");
                    }
                    seen.push((id, item.number));
                    let input = id.meta().input.as_str();
                    let fits = match (c.kind.as_str(), input) {
                        ("Cluster", "cluster" | "sql") => true,
                        ("EventBoundary", "event-boundary") => true,
                        // A rule on the other kind concerns this one only
                        // through a field naming it.
                        ("Cluster", "event-boundary") => !spec.via().is_empty(),
                        _ => false,
                    };
                    assert!(fits, "{at}: {id} checks {input} input");
                }
            }
            assert_eq!(
                item.applies_when.is_some(),
                item.not_applicable.is_some(),
                "{at}: applies_when and not_applicable go together"
            );
            if let Some(cond) = &item.applies_when {
                assert!(
                    conditions::NAMES.contains(&cond.as_str()),
                    "{at}: unknown condition {cond}"
                );
            }
            assert!(!item.title.is_empty() && !item.text.is_empty());
        }
    }
    // Every contract rule decides an item, unless listed as deciding none.
    for &rule in RuleId::ALL {
        let family = &rule.as_str()[..2];
        if !matches!(family, "CL" | "EV" | "XR") || NO_ITEM.contains(&rule.as_str()) {
            continue;
        }
        assert!(
            !checklist::items_deciding(rule).is_empty(),
            "{rule} decides no checklist item: name it under an item's `rules:`, or in NO_ITEM with a reason"
        );
    }
    for id in NO_ITEM {
        let rule = RuleId::parse(id).unwrap();
        assert!(checklist::items_deciding(rule).is_empty(), "{id}");
    }
}

#[test]
fn overlapping_at_windows_of_one_rule_are_found() {
    let list = |items: &str| {
        checklist::parse(&format!(
            "id: t\ntitle: T\nkind: EventBoundary\nsource: s\nitems:\n{items}"
        ))
        .unwrap()
    };
    let item = |n: u32, rules: &str| {
        format!(
            "  - number: {n}\n    title: t\n    text: t\n    source: s\n    evidence: [/spec/a]\n    rules: [{rules}]\n"
        )
    };
    let disjoint = list(&format!(
        "{}{}",
        item(1, "{id: EV140, at: [/spec/consumers/*/dlq/replay_tool]}"),
        item(
            2,
            "{id: EV140, at: [/spec/consumers/*/read_model, /spec/ordering/repartition_plan]}"
        )
    ));
    assert_eq!(checklist::at_overlaps(&disjoint), Vec::<String>::new());
    // A wildcard meets a name, and a field meets a pointer under it.
    let wild = list(&format!(
        "{}{}",
        item(1, "{id: EV140, at: [/spec/consumers/*/dlq]}"),
        item(
            2,
            "{id: EV140, at: [/spec/consumers/billing/dlq/replay_tool]}"
        )
    ));
    assert_eq!(
        checklist::at_overlaps(&wild),
        [
            "t: EV140 in items 1 and 2: `/spec/consumers/*/dlq` and `/spec/consumers/billing/dlq/replay_tool` overlap"
        ]
    );
    // An item without a window takes every finding, whichever comes first.
    for (a, b) in [
        ("EV140", "{id: EV140, at: [/spec/x]}"),
        ("{id: EV140, at: [/spec/x]}", "EV140"),
    ] {
        let open = list(&format!("{}{}", item(1, a), item(2, b)));
        assert_eq!(
            checklist::at_overlaps(&open),
            ["t: EV140 in items 1 and 2: one of them takes every finding (no `at:`)"]
        );
    }
}
