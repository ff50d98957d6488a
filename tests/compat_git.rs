//! EV053 against real git histories: each test builds a repository in a
//! temporary directory, evolves a payload schema over several commits, and
//! checks the working tree with `--base`. One file a schema format; what
//! `--base` itself means stays here.
#[path = "compat_git/avro.rs"]
mod avro;
mod common;
#[path = "compat_git/examples.rs"]
mod examples;
#[path = "compat_git/json_schema.rs"]
mod json_schema;
#[path = "compat_git/protobuf.rs"]
mod protobuf;

use common::GitRepo;
use platcheck::RuleId;
use platcheck::engine::{Outcome, RunError};

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\ninclude: [contracts/**]\n";

fn contract(format: &str, path: &str, mode: &str, policy: Option<&str>) -> String {
    let policy = policy.map_or(String::new(), |p| {
        format!("    compatibility_policy: {p}\n")
    });
    format!(
        "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: orders\n  owner: team-orders\n\
         spec:\n  shape: event\n  event_type: order.confirmed\n  version: 2\n  schema:\n    format: {format}\n    \
         path: {path}\n    compatibility: {mode}\n{policy}"
    )
}

/// A repository with config and contract, and `first` committed as the
/// schema's first version.
fn repo(format: &str, path: &str, mode: &str, policy: Option<&str>, first: &str) -> GitRepo {
    let r = GitRepo::new();
    r.write("platcheck.yaml", CONFIG);
    r.write(
        "contracts/orders.yaml",
        &contract(format, path, mode, policy),
    );
    r.write(path, first);
    r.commit("first schema");
    r
}

/// EV053 findings as (file, line, message).
fn ev053(o: &Outcome) -> Vec<(String, usize, String)> {
    o.findings
        .iter()
        .filter(|f| f.rule == RuleId::EV053)
        .map(|f| (f.file.clone(), f.line, f.message.clone()))
        .collect()
}

fn run(r: &GitRepo, base: &str) -> Vec<(String, usize, String)> {
    ev053(&r.check(Some(base)).expect("run succeeds"))
}

/// The message of the one finding in `got`, which is on `line` and says
/// `says`.
fn only<'g>(got: &'g [(String, usize, String)], line: usize, says: &str) -> &'g str {
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, line, "{got:?}");
    assert!(got[0].2.contains(says), "{}", got[0].2);
    &got[0].2
}

fn avro(fields: &[&str]) -> String {
    format!(
        "{{\n  \"type\": \"record\",\n  \"name\": \"Order\",\n  \"fields\": [\n    {}\n  ]\n}}\n",
        fields.join(",\n    ")
    )
}

const ID: &str = r#"{"name": "id", "type": "string"}"#;
const QTY: &str = r#"{"name": "qty", "type": "int"}"#;

#[test]
fn a_schema_missing_at_base_is_new_and_bad_input_is_located() {
    let r = GitRepo::new();
    r.write("platcheck.yaml", CONFIG);
    r.commit("config only");
    r.write(
        "contracts/orders.yaml",
        &contract("avro", "schemas/order.avsc", "full", None),
    );
    r.write("schemas/order.avsc", &avro(&[ID]));
    assert_eq!(run(&r, "HEAD"), []);

    r.write(
        "schemas/order.avsc",
        "{\"type\": \"record\", \"name\": \"Order\",\n  \"fields\": [}\n",
    );
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 2);
    assert!(
        got[0]
            .2
            .starts_with("orders: cannot read this Avro file: JSON syntax"),
        "{}",
        got[0].2
    );
}

#[test]
fn without_base_only_a_note_and_bad_bases_are_usage_errors() {
    let r = repo("avro", "schemas/order.avsc", "full", None, &avro(&[ID]));
    r.write("schemas/order.avsc", &avro(&[ID, QTY]));
    let o = r.check(None).unwrap();
    assert_eq!(ev053(&o), []);
    assert_eq!(o.notes.len(), 1);
    assert!(o.notes[0].contains("was not checked for 1 event boundary: pass --base"));
    assert!(common::json(&o).contains("\"notes\": ["));

    match r.check(Some("no-such-branch")) {
        Err(RunError::Usage(m)) => assert!(
            m.starts_with("--base no-such-branch: no such revision"),
            "{m}"
        ),
        Ok(_) => panic!("an unknown ref must be a usage error"),
    }
    let plain = tempfile::tempdir().unwrap();
    std::fs::write(plain.path().join("platcheck.yaml"), CONFIG).unwrap();
    let err = platcheck::engine::run(
        &[std::path::PathBuf::from(".")],
        plain.path(),
        &platcheck::settings::Overrides {
            base: Some("HEAD".into()),
            ..Default::default()
        },
    );
    match err {
        Err(RunError::Usage(m)) => assert!(m.contains("is not inside one"), "{m}"),
        Ok(_) => panic!("--base outside a repository must be a usage error"),
    }
}
