//! The report's formats and command: the JSON schema itself, the compact
//! Markdown, escaping, the `report` subcommand's files and exit codes, and
//! findings written as output v1 writes them.
use super::{assert_valid, facts, report_schema, run, violations};
use crate::common;
use platcheck::engine;
use platcheck::report::model::{self, RunFacts};
use platcheck::report::{self, Format, Links, Options};
use platcheck::settings::Overrides;
use serde_json::Value;

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
