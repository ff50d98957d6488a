//! The launch-checklist report: the checklist data agrees with the rules and
//! the schemas; each status has a fixture contract whose Markdown and JSON
//! are snapshotted; the JSON validates against its documented schema and
//! writes findings as output v1 does; every format escapes user text.
//! (`report_evidence.rs` runs the report on the examples' edited copies.)
mod common;
use platcheck::RuleId;
use platcheck::engine::{self, Outcome, WaivedBy};
use platcheck::report::checklist::{self, Checklist, Cond, Input, When};
use platcheck::report::model::{self, Report, Revision, RunFacts, Status};
use platcheck::report::{self, Format, Links, Options, conditions};
use platcheck::settings::Overrides;
use serde_json::Value;
use std::path::{Path, PathBuf};

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

fn run(dir: &Path, base: Option<&str>) -> Outcome {
    let overrides = Overrides {
        base: base.map(String::from),
        ..Overrides::default()
    };
    engine::run(&[PathBuf::from(".")], dir, &overrides).expect("run succeeds")
}

/// Facts that do not change from one checkout to the next: a fixed commit,
/// and one author for every waiver line.
fn facts(outcome: &Outcome) -> RunFacts {
    let mut f = RunFacts::of(outcome);
    f.revision = Some(Revision {
        commit: "0123456789abcdef0123456789abcdef01234567".into(),
        dirty: false,
    });
    let ws = &outcome.files;
    let mut lines = Vec::new();
    for w in &outcome.waived {
        lines.push(match &w.by {
            WaivedBy::Inline(i) => {
                let s = &outcome.suppressions[*i];
                (ws[s.file].display.clone(), s.line)
            }
            WaivedBy::Baseline { file, line } => (file.clone(), *line),
        });
    }
    for s in &outcome.suppressions {
        lines.push((ws[s.file].display.clone(), s.line));
    }
    for l in lines {
        f.authors
            .insert(l, "Dana Reviewer <dana@example.test>, 2026-11-02".into());
    }
    f
}

fn item<'a>(r: &'a Report, contract: &str, n: u32) -> &'a model::ItemResult<'a> {
    let c = r
        .contracts
        .iter()
        .find(|c| c.name == contract)
        .unwrap_or_else(|| panic!("no contract {contract}"));
    c.items.iter().find(|i| i.item.number == n).unwrap()
}

fn report_schema() -> jsonschema::Validator {
    let s: Value = serde_json::from_str(report::json::SCHEMA).unwrap();
    jsonschema::validator_for(&s).unwrap()
}

fn assert_valid(json: &str, what: &str) {
    let doc: Value = serde_json::from_str(json).unwrap();
    let v = report_schema();
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

/// The status each fixture exists for, with the item that shows it.
const FIXTURES: &[(&str, &str, u32, Status)] = &[
    ("met", "billing-db", 12, Status::Met),
    ("not-met", "billing-db", 10, Status::NotMet),
    ("missing-evidence", "billing-db", 12, Status::Missing),
    ("waived", "billing-db", 12, Status::Waived),
    ("expired-waiver", "billing-db", 12, Status::NotMet),
    ("not-checked", "invoice-issued", 5, Status::NotChecked),
    ("not-applicable", "billing-db", 4, Status::NotApplicable),
];

#[test]
fn each_status_has_a_fixture_with_markdown_and_json_snapshots() {
    for (name, contract, n, status) in FIXTURES {
        let dir = common::root().join("tests/report_fixtures").join(name);
        let outcome = run(&dir, None);
        let r = model::build(&outcome, facts(&outcome));
        let it = item(&r, contract, *n);
        assert_eq!(it.status, *status, "{name}: item {n}: {it:#?}");
        let md = report::render_model(Format::Markdown, &r, &Options::default());
        let json = report::render_model(Format::Json, &r, &Options::default());
        assert_valid(&json, name);
        common::versionless(|| {
            insta::assert_snapshot!(format!("status_{name}_markdown"), md);
            insta::assert_snapshot!(format!("status_{name}_json"), json);
        });
    }
}

#[test]
fn status_fixtures_say_why() {
    let build = |name: &str| {
        let dir = common::root().join("tests/report_fixtures").join(name);
        let outcome = run(&dir, None);
        let f = facts(&outcome);
        // The model borrows the outcome: keep both.
        (outcome, f)
    };
    // met: every item met or not applicable.
    let (o, f) = build("met");
    let r = model::build(&o, f);
    for i in &r.contracts[0].items {
        assert!(
            matches!(i.status, Status::Met | Status::NotApplicable),
            "{}: {:?}",
            i.item.number,
            i.status
        );
    }
    let mig = item(&r, "billing-db", 10);
    assert!(
        mig.evidence
            .iter()
            .any(|e| e.label == "migration files checked"
                && e.value == "1 SQL file under migrations"),
        "{:?}",
        mig.evidence
    );
    // not met: the migration finding sits under item 10, the cadence under 12.
    let (o, f) = build("not-met");
    let r = model::build(&o, f);
    let mig = item(&r, "billing-db", 10);
    assert!(mig.findings.iter().any(|f| f.rule == RuleId::MG001));
    assert!(r.outside.is_empty(), "{:?}", r.outside);
    let cost = item(&r, "billing-db", 12);
    assert_eq!(cost.status, Status::NotMet);
    assert_eq!(cost.short[0].label, "cost.review_cadence");
    assert_eq!(cost.short[0].expected, "at most 31d");
    assert!(
        cost.text.contains("cost review cadence 90d"),
        "{}",
        cost.text
    );
    // missing evidence: exactly which fields.
    let (o, f) = build("missing-evidence");
    let r = model::build(&o, f);
    let labels = |i: &model::ItemResult| -> Vec<String> {
        i.missing.iter().map(|m| m.label.clone()).collect()
    };
    assert_eq!(
        labels(item(&r, "billing-db", 10)),
        ["migrations.tool_version"]
    );
    assert_eq!(
        labels(item(&r, "billing-db", 12)),
        [
            "cost.archival.runbook",
            "cost.archival.last_tested",
            "cost.archival.cold_after"
        ]
    );
    // waived: inline (reason, until, author) and baseline.
    let (o, f) = build("waived");
    let r = model::build(&o, f);
    let cost = item(&r, "billing-db", 12);
    let w = &cost.waivers[0];
    assert_eq!(w.kind, model::WaiverKind::Inline);
    assert_eq!(
        w.reason,
        "the cost review moved to the quarterly close on 2026-12-15"
    );
    assert_eq!(w.until.as_deref(), Some("2026-12-31"));
    assert_eq!(
        w.author.as_deref(),
        Some("Dana Reviewer <dana@example.test>, 2026-11-02")
    );
    assert!(!w.expired);
    let ha = item(&r, "billing-db", 2);
    assert_eq!(ha.status, Status::Waived);
    assert_eq!(ha.waivers[0].kind, model::WaiverKind::Baseline);
    assert_eq!(
        (ha.waivers[0].file.as_str(), ha.waivers[0].line),
        ("baseline.json", 5)
    );
    // expired: the finding is in force and its waiver is shown.
    let (o, f) = build("expired-waiver");
    let r = model::build(&o, f);
    let cost = item(&r, "billing-db", 12);
    assert_eq!(cost.findings[0].rule, RuleId::CL110);
    assert!(cost.waivers[0].expired);
    assert!(
        r.contracts[0].other.iter().any(|f| f.rule == RuleId::PC010),
        "the PC010 of the expired suppression concerns the contract"
    );
    // not checked: which flag, which input, which rule.
    let (o, f) = build("not-checked");
    let r = model::build(&o, f);
    let how = |c: &str, n: u32| -> Vec<String> {
        item(&r, c, n)
            .unchecked
            .iter()
            .map(|u| u.how.clone())
            .collect()
    };
    assert_eq!(
        how("invoice-issued", 5),
        ["pass --base GIT-REF (the revision to compare with)"]
    );
    assert_eq!(
        how("invoice-issued", 4),
        ["it is turned off in platcheck.yaml"]
    );
    assert!(how("billing-db", 10)[0].starts_with("no SQL file under migrations was among"));
    // What the fixture is named for: nothing in it is not met (its replay
    // tool exists, so EV140 has nothing to say on item 7).
    for c in &r.contracts {
        for i in &c.items {
            assert_ne!(
                i.status,
                Status::NotMet,
                "{} item {}: {i:#?}",
                c.name,
                i.item.number
            );
        }
    }
    // not applicable: the condition from the contract's own values, and
    // excluded from the denominator.
    let (o, f) = build("not-applicable");
    let r = model::build(&o, f);
    assert_eq!(
        item(&r, "billing-db", 3).reason.as_deref(),
        Some("no read replicas (read_replicas.count is 0), so no query class reads stale data")
    );
    assert_eq!(
        item(&r, "billing-db", 4).reason.as_deref(),
        Some("the cluster is not sharded (sharding.enabled is false)")
    );
    let t = r.totals();
    assert_eq!((t.get(Status::Met), t.applicable(), t.total()), (9, 9, 12));
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("**Items:** 9 of 9 items that apply met; 3 not applicable (not counted)"));
    assert!(
        md.contains("**Contracts:** 1 (1 cluster, 0 event boundaries)"),
        "{md:.600}"
    );
}

fn violations() -> Outcome {
    engine::run(
        &[PathBuf::from("examples/violations")],
        &common::root(),
        &Overrides::default(),
    )
    .expect("run succeeds")
}

#[test]
fn markdown_report_of_violations() {
    let outcome = violations();
    let r = model::build(&outcome, facts(&outcome));
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("- **Date used:** 2026-11-30 (from platcheck.yaml)"));
    assert!(md.contains("- **Config:** examples/violations/platcheck.yaml"));
    common::versionless(|| insta::assert_snapshot!("violations_markdown", md));
    let again = violations();
    let again = report::render_model(
        Format::Markdown,
        &model::build(&again, facts(&again)),
        &Options::default(),
    );
    assert_eq!(md, again, "the report is deterministic");
    let json = report::render_model(Format::Json, &r, &Options::default());
    assert_valid(&json, "examples/violations");
    let doc: Value = serde_json::from_str(&json).unwrap();
    let statuses: std::collections::BTreeSet<&str> = doc["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["items"].as_array().unwrap())
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    let all: std::collections::BTreeSet<&str> = Status::ALL.iter().map(|s| s.slug()).collect();
    assert_eq!(statuses, all, "examples/violations shows every status");
}

#[test]
fn the_report_schema_is_valid_closed_and_documented() {
    let schema: Value = serde_json::from_str(report::json::SCHEMA).unwrap();
    jsonschema::draft202012::meta::validate(&schema).unwrap();
    fn walk(path: &str, s: &Value, problems: &mut Vec<String>) {
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            if s.get("additionalProperties") != Some(&Value::Bool(false)) {
                problems.push(format!("{path}: not closed"));
            }
            for (k, v) in props {
                if v.get("description")
                    .and_then(Value::as_str)
                    .is_none_or(|d| d.trim().is_empty())
                {
                    problems.push(format!("{path}/{k}: no description"));
                }
                walk(&format!("{path}/{k}"), v, problems);
            }
        }
        for key in ["items", "$defs", "oneOf"] {
            match s.get(key) {
                Some(Value::Object(m)) if key == "$defs" => {
                    for (k, v) in m {
                        walk(&format!("{path}/$defs/{k}"), v, problems);
                    }
                }
                Some(Value::Array(a)) => {
                    for (i, v) in a.iter().enumerate() {
                        walk(&format!("{path}/{key}/{i}"), v, problems);
                    }
                }
                Some(v @ Value::Object(_)) => walk(&format!("{path}/{key}"), v, problems),
                _ => {}
            }
        }
    }
    let mut problems = Vec::new();
    walk("", &schema, &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The binary prints it, and the committed file is that text.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["schema", "report"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), report::json::SCHEMA);
    // The clean example's report (with --base) validates too.
    let clean = run(&common::root().join("examples/clean"), Some("HEAD"));
    let json = report::render_model(
        Format::Json,
        &model::build(&clean, RunFacts::of(&clean)),
        &Options::default(),
    );
    assert_valid(&json, "examples/clean");
}

#[test]
fn compact_markdown_has_the_summary_and_one_row_per_contract() {
    let outcome = violations();
    let r = model::build(&outcome, facts(&outcome));
    let full = report::render_model(Format::Markdown, &r, &Options::default());
    let compact = report::render_model(
        Format::Markdown,
        &r,
        &Options {
            compact: true,
            links: Links::url("https://example.test/blob/abc"),
        },
    );
    assert!(compact.contains("## By owner") && compact.contains("## Contracts"));
    assert!(
        !compact.contains("**1. "),
        "no item details in the compact form"
    );
    assert!(!compact.contains("## Findings outside any contract"));
    assert_eq!(
        compact.matches("| Cluster [").count() + compact.matches("| Event boundary [").count(),
        r.contracts.len()
    );
    assert!(compact.contains("](https://example.test/blob/abc/examples/violations/contracts/"));
    assert!(
        compact.len() * 4 < full.len(),
        "compact {} vs full {}",
        compact.len(),
        full.len()
    );
}

const CLUSTER: &str = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: NAME\n  owner: OWNER\n  lifecycle: production\nspec:\n  region: eu-west-1\n";

#[test]
fn user_text_is_escaped_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("platcheck.yaml"),
        "version: 1\ntoday: 2026-11-30\n",
    )
    .unwrap();
    let owner = "'\"<script>alert(1)</script> | *x* [l](http://e.test)'";
    std::fs::write(
        dir.path().join("evil.yaml"),
        CLUSTER.replace("NAME", "evil").replace("OWNER", owner),
    )
    .unwrap();
    let outcome = run(dir.path(), None);
    let r = model::build(&outcome, RunFacts::of(&outcome));
    let html = report::render_model(Format::Html, &r, &Options::default());
    assert!(!html.contains("<script"), "raw script tag in the HTML");
    assert!(html.contains("&quot;&lt;script&gt;alert(1)&lt;/script&gt;"));
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(
        md.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\| \\*x\\* \\[l\\](http://e.test)"),
        "{md}"
    );
    let json = report::render_model(Format::Json, &r, &Options::default());
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        doc["contracts"][0]["owner"],
        "\"<script>alert(1)</script> | *x* [l](http://e.test)"
    );
}

#[test]
fn report_command_writes_markdown_html_and_json() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("sub/report.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "examples/violations", "-o"])
        .arg(&file)
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(&file).unwrap();
    // From <tmp>/sub/ up to the directory it shares with the repository,
    // then down into the repository (both may live under /tmp).
    let from: Vec<_> = file.parent().unwrap().components().collect();
    let target = common::root().join("examples/violations/contracts");
    let to: Vec<_> = target.components().collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let down: Vec<String> = to[shared..]
        .iter()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let expected = format!("]({}{}/", "../".repeat(from.len() - shared), down.join("/"));
    assert!(md.contains(&expected), "no link like {expected}");
    assert!(md.contains("- **platcheck:** "));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "examples/violations", "--format", "json"])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = String::from_utf8(o.stdout).unwrap();
    assert_valid(&json, "platcheck report --format json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "examples/violations", "--format", "sarif"])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("writes markdown, html or json"));
    for f in ["markdown", "html"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(["check", "examples/clean", "--format", f])
            .current_dir(common::root())
            .output()
            .unwrap();
        assert!(o.status.success(), "check --format {f}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("Launch checklist report"));
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["rule", "XR001"])
        .output()
        .unwrap();
    let doc = String::from_utf8_lossy(&o.stdout);
    assert!(
        doc.contains("Checklist: data-platform/2 High availability"),
        "{doc}"
    );
    assert!(
        doc.contains("Checklist: event-boundary/3 Outbox and per-key ordering"),
        "{doc}"
    );
}

#[test]
fn every_rule_fixture_renders_a_valid_report() {
    // The rule fixtures are a catalogue of broken and odd inputs: the report
    // of each renders in every format, and its JSON validates.
    let v = report_schema();
    let mut seen = 0;
    for fam in ["cl", "ev", "xr", "pc", "mg"] {
        let dir = common::root().join("tests/fixtures").join(fam);
        for rule in std::fs::read_dir(&dir).unwrap() {
            for case in std::fs::read_dir(rule.unwrap().path()).unwrap() {
                let path = case.unwrap().path();
                let rel = path.strip_prefix(common::root()).unwrap().to_path_buf();
                let outcome = engine::run(
                    std::slice::from_ref(&rel),
                    &common::root(),
                    &Overrides::default(),
                )
                .expect("run succeeds");
                let r = model::build(&outcome, RunFacts::of(&outcome));
                for f in [Format::Markdown, Format::Html] {
                    assert!(!report::render_model(f, &r, &Options::default()).is_empty());
                }
                let json = report::render_model(Format::Json, &r, &Options::default());
                let doc: Value = serde_json::from_str(&json).unwrap();
                let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
                assert!(errors.is_empty(), "{}: {errors:?}", rel.display());
                seen += 1;
            }
        }
    }
    assert!(seen > 250, "{seen}");
}

#[test]
fn report_findings_are_written_as_output_v1_writes_them() {
    let outcome = violations();
    let check: Value = serde_json::from_str(&platcheck::output::json::render(&outcome)).unwrap();
    let v1: Vec<&Value> = check["findings"].as_array().unwrap().iter().collect();
    let r = model::build(&outcome, RunFacts::of(&outcome));
    let doc: Value =
        serde_json::from_str(&report::render_model(Format::Json, &r, &Options::default())).unwrap();
    let mut seen = 0;
    let mut all: Vec<&Value> = doc["outside_contracts"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    for c in doc["contracts"].as_array().unwrap() {
        all.extend(c["other_findings"].as_array().unwrap());
        for i in c["items"].as_array().unwrap() {
            all.extend(i["findings"].as_array().unwrap());
        }
    }
    for f in all {
        assert!(v1.contains(&f), "not as output v1 writes it: {f}");
        seen += 1;
    }
    assert!(seen >= v1.len(), "{seen} of {}", v1.len());
}
