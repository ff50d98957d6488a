//! The launch-checklist report: the checklist data agrees with the rules and
//! the schemas, every status is reachable, the Markdown for
//! examples/violations is snapshotted, and user text cannot escape.
mod common;
use platcheck::RuleId;
use platcheck::engine::{self, Outcome};
use platcheck::report::checklist::{self, Checklist};
use platcheck::report::model::{self, Status};
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

/// Whether a pointer (with `*`) names properties the schema declares.
fn in_schema(root: &Value, node: &Value, segments: &[&str]) -> bool {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => root.pointer(r.trim_start_matches('#')).unwrap(),
        None => node,
    };
    let Some((head, rest)) = segments.split_first() else {
        return true;
    };
    if *head == "*" {
        if let Some(items) = node.get("items") {
            return in_schema(root, items, rest);
        }
        let props = node.get("properties").and_then(Value::as_object);
        return props.is_some_and(|p| p.values().all(|v| in_schema(root, v, rest)));
    }
    node.pointer(&format!("/properties/{head}"))
        .is_some_and(|child| in_schema(root, child, rest))
}

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
        let root = schema(c);
        for item in &c.items {
            let at = format!("{path} item {}", item.number);
            for p in item.evidence.iter().chain(&item.attest) {
                let segs: Vec<&str> = p.trim_start_matches('/').split('/').collect();
                assert!(
                    in_schema(&root, &root, &segs),
                    "{at}: {p} is not a field of the schema"
                );
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
            assert!(!item.title.is_empty() && !item.text.is_empty() && !item.source.is_empty());
        }
    }
    // Every rule's `checklist:` names an existing item of a checklist for
    // the rule's own kind of input.
    for &rule in RuleId::ALL {
        let Some(value) = &rule.meta().checklist else {
            continue;
        };
        let (id, n) = checklist::split_ref(value).unwrap_or_else(|| panic!("{rule}: `{value}`"));
        let list = lists
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{rule}: no checklist {id}"));
        assert!(list.item(n).is_some(), "{rule}: {id} has no item {n}");
        let kind = match rule.meta().input.as_str() {
            "cluster" => "Cluster",
            "event-boundary" => "EventBoundary",
            other => panic!("{rule}: a rule on {other} input cannot decide a contract checklist"),
        };
        assert_eq!(
            list.kind, kind,
            "{rule}: checklist {id} is for {}",
            list.kind
        );
    }
    // Items no rule decides must say which fields attest them.
    let undecided: Vec<String> = lists
        .iter()
        .flat_map(|c| {
            c.items
                .iter()
                .filter(|i| c.rules(i.number).is_empty())
                .map(move |i| (c, i))
        })
        .map(|(c, i)| {
            assert!(
                !i.attest.is_empty(),
                "{}/{}: no rule decides it and it has no `attest`",
                c.id,
                i.number
            );
            format!("{}/{}", c.id, i.number)
        })
        .collect();
    println!("items no rule decides (attested from the contract): {undecided:?}");
}

fn run(dir: &Path, paths: &[&str]) -> Outcome {
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    engine::run(&paths, dir, &Overrides::default()).expect("run succeeds")
}

#[test]
fn markdown_report_of_violations() {
    // Today comes from examples/violations/platcheck.yaml, as a user would run it.
    let outcome = run(&common::root(), &["examples/violations"]);
    let md = report::render(Format::Markdown, &outcome, &Options::default());
    assert!(md.contains("**Today:** 2026-11-30 (from platcheck.yaml)"));
    common::versionless(|| insta::assert_snapshot!("violations_markdown", md));
    let again = report::render(
        Format::Markdown,
        &run(&common::root(), &["examples/violations"]),
        &Options::default(),
    );
    assert_eq!(md, again, "the report is deterministic");
}

#[test]
fn compact_markdown_has_the_summary_and_one_row_per_contract() {
    let outcome = run(&common::root(), &["examples/violations"]);
    let full = report::render(Format::Markdown, &outcome, &Options::default());
    let compact = report::render(
        Format::Markdown,
        &outcome,
        &Options {
            compact: true,
            links: Links::url("https://example.test/blob/abc"),
        },
    );
    let contracts = model::build(&outcome).contracts.len();
    assert!(compact.contains("## By owner") && compact.contains("## Contracts"));
    assert!(
        !compact.contains("**1. "),
        "no item details in the compact form"
    );
    assert_eq!(
        compact.matches("| Cluster [").count() + compact.matches("| Event boundary [").count(),
        contracts
    );
    assert!(compact.contains("](https://example.test/blob/abc/examples/violations/contracts/"));
    assert!(
        compact.len() * 4 < full.len(),
        "compact {} vs full {}",
        compact.len(),
        full.len()
    );
}

const CLUSTER: &str = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: NAME\n  owner: OWNER\n  lifecycle: production\nspec:\n  region: eu-west-1\nCOST";

/// A tiny repository: its own config and one cluster per (name, owner, cost block).
fn repo(config: &str, clusters: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), config).unwrap();
    for (name, owner, cost) in clusters {
        let text = CLUSTER
            .replace("NAME", name)
            .replace("OWNER", owner)
            .replace("COST", cost);
        std::fs::write(dir.path().join(format!("{name}.yaml")), text).unwrap();
    }
    dir
}

#[test]
fn every_status_is_reachable_with_its_reason() {
    let cost = "  cost:\n    last_review: 2026-11-01\n    review_cadence: 30d\n";
    let dir = repo(
        "version: 1\ntoday: 2026-11-30\nrules:\n  CL110: off\n  CL021: off\n",
        &[
            ("with-cost", "team-a", cost),
            ("without-cost", "team-b", ""),
        ],
    );
    let outcome = run(dir.path(), &["."]);
    let r = model::build(&outcome);
    let item = |name: &str, n: u32| {
        let c = r.contracts.iter().find(|c| c.name == name).unwrap();
        c.items.iter().find(|i| i.item.number == n).unwrap()
    };
    let cost_done = item("with-cost", 12);
    assert_eq!(cost_done.status, Status::Attested);
    assert_eq!(
        cost_done.reason.as_deref(),
        Some("CL021, CL110 turned off in the config; the contract declares it")
    );
    assert_eq!(cost_done.evidence.len(), 2);
    assert_eq!(cost_done.evidence[0].label, "cost.last_review");
    assert_eq!(cost_done.evidence[0].line, 10);
    let cost_absent = item("without-cost", 12);
    assert_eq!(cost_absent.status, Status::Missing);
    let ha = item("without-cost", 2);
    assert_eq!(ha.status, Status::NotMet);
    assert!(ha.findings.iter().any(|f| f.rule == RuleId::CL010));
    let shards = item("without-cost", 4);
    assert_eq!(shards.status, Status::NotApplicable);
    assert_eq!(
        shards.reason.as_deref(),
        Some("the cluster is not sharded (no spec.sharding block, engine class not declared)")
    );
    let regions = item("without-cost", 5);
    assert_eq!(
        regions.reason.as_deref(),
        Some("single-region cluster (eu-west-1): no cross-region copy to declare")
    );
    // The summary counts by owner.
    let owners: Vec<&str> = r.by_owner().into_keys().collect();
    assert_eq!(owners, ["team-a", "team-b"]);
}

#[test]
fn met_items_and_boundary_conditions_on_the_clean_example() {
    let outcome = run(&common::root(), &["examples/clean"]);
    let r = model::build(&outcome);
    assert!(!r.contracts.is_empty());
    for c in &r.contracts {
        for i in &c.items {
            assert!(
                matches!(i.status, Status::Met | Status::NotApplicable),
                "{} item {} is {:?}: {:?}",
                c.name,
                i.item.number,
                i.status,
                i.findings
            );
        }
    }
    let orders = r
        .contracts
        .iter()
        .find(|c| c.name == "order-confirmed")
        .unwrap();
    let eo = orders.items.iter().find(|i| i.item.number == 10).unwrap();
    assert_eq!(eo.status, Status::NotApplicable);
    assert_eq!(
        eo.reason.as_deref(),
        Some("no exactly-once claim: delivery is at-least-once")
    );
}

#[test]
fn user_text_is_escaped_in_both_formats() {
    let dir = repo(
        "version: 1\ntoday: 2026-11-30\n",
        &[(
            "evil",
            "'\"<script>alert(1)</script> | *x* [l](http://e.test)'",
            "",
        )],
    );
    let outcome = run(dir.path(), &["."]);
    let html = report::render(Format::Html, &outcome, &Options::default());
    assert!(!html.contains("<script"), "raw script tag in the HTML");
    assert!(html.contains("&quot;&lt;script&gt;alert(1)&lt;/script&gt;"));
    let md = report::render(Format::Markdown, &outcome, &Options::default());
    assert!(
        md.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\| \\*x\\* \\[l\\](http://e.test)"),
        "{md}"
    );
}

#[test]
fn report_command_writes_a_file_with_links_relative_to_it() {
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
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["report", "examples/violations", "--format", "sarif"])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("writes markdown or html"));
    for f in ["markdown", "html"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(["check", "examples/clean", "--format", f])
            .current_dir(common::root())
            .output()
            .unwrap();
        assert!(o.status.success(), "check --format {f}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("Launch checklist report"));
    }
}
