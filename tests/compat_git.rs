//! EV053 against real git histories: each test builds a repository in a
//! temporary directory, evolves a payload schema over several commits, and
//! checks the working tree with `--base`.
mod common;
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

fn avro(fields: &[&str]) -> String {
    format!(
        "{{\n  \"type\": \"record\",\n  \"name\": \"Order\",\n  \"fields\": [\n    {}\n  ]\n}}\n",
        fields.join(",\n    ")
    )
}

const ID: &str = r#"{"name": "id", "type": "string"}"#;
const QTY: &str = r#"{"name": "qty", "type": "int"}"#;

#[test]
fn avro_backward_flags_an_added_field_without_default_only() {
    let r = repo(
        "avro",
        "schemas/order.avsc",
        "backward",
        None,
        &avro(&[ID, QTY]),
    );
    r.write(
        "schemas/order.avsc",
        &avro(&[ID, QTY, r#"{"name": "note", "type": "string"}"#]),
    );
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].0.as_str(), got[0].1), ("schemas/order.avsc", 7));
    assert!(
        got[0].2.starts_with("orders: `Order.note` field added without a default: breaks backward compatibility against the base revision `HEAD`"),
        "{}",
        got[0].2
    );
    // Removing a field is a forward break only: backward accepts it.
    r.write("schemas/order.avsc", &avro(&[ID]));
    assert_eq!(run(&r, "HEAD"), []);
    r.write(
        "schemas/order.avsc",
        &avro(&[
            ID,
            QTY,
            r#"{"name": "note", "type": "string", "default": ""}"#,
        ]),
    );
    assert_eq!(run(&r, "HEAD"), []);
}

#[test]
fn avro_forward_flags_a_removed_field_at_the_enclosing_record() {
    let r = repo(
        "avro",
        "schemas/order.avsc",
        "forward",
        None,
        &avro(&[ID, QTY]),
    );
    r.write("schemas/order.avsc", &avro(&[ID]));
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 4, "points at `\"fields\"` of the new record");
    assert!(got[0].2.contains(
        "`Order.qty` field removed, and the old schema has no default for it: breaks forward"
    ));
    // An added field without default is backward-only.
    r.write(
        "schemas/order.avsc",
        &avro(&[ID, QTY, r#"{"name": "note", "type": "string"}"#]),
    );
    assert_eq!(run(&r, "HEAD"), []);
}

#[test]
fn avro_full_rejects_a_one_way_promotion() {
    let r = repo(
        "avro",
        "schemas/order.avsc",
        "full",
        None,
        &avro(&[ID, QTY]),
    );
    r.write(
        "schemas/order.avsc",
        &avro(&[ID, r#"{"name": "qty", "type": "long"}"#]),
    );
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 6);
    assert!(
        got[0]
            .2
            .contains("`Order.qty` type changed from int to long: breaks full compatibility")
    );
    assert!(
        got[0]
            .2
            .contains("the old schema cannot read data written with the new one")
    );
}

#[test]
fn avro_transitive_compares_every_earlier_version_across_a_rename() {
    let x = |ty: &str| format!(r#"{{"name": "x", "type": "{ty}", "default": 0}}"#);
    let r = repo(
        "avro",
        "schemas/old.avsc",
        "backward",
        None,
        &avro(&[ID, &x("int")]),
    );
    let with_int = r.git(&["rev-parse", "HEAD"]);
    r.write("schemas/old.avsc", &avro(&[ID, &x("long")]));
    r.commit("widen x");
    // A rename in a commit of its own: git's rename detection needs the
    // content to stay similar, which small schema files rarely do when edited.
    r.git(&["mv", "schemas/old.avsc", "schemas/order.avsc"]);
    r.write(
        "contracts/orders.yaml",
        &contract("avro", "schemas/order.avsc", "backward", None),
    );
    let renamed = r.commit("rename");
    r.write("schemas/order.avsc", &avro(&[ID]));
    r.commit("drop x");
    r.write(
        "schemas/order.avsc",
        &avro(&[ID, r#"{"name": "x", "type": "string", "default": ""}"#]),
    );
    assert_eq!(run(&r, "HEAD"), [], "compatible with the base version");

    r.write(
        "contracts/orders.yaml",
        &contract("avro", "schemas/order.avsc", "backward-transitive", None),
    );
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got.iter()
            .all(|g| g.1 == 6 && g.2.contains("breaks backward-transitive"))
    );
    // The newest commit holding a version is the one named.
    assert!(
        got[0]
            .2
            .contains("`Order.x` type changed from int to string"),
        "{}",
        got[0].2
    );
    assert!(
        got[0]
            .2
            .contains(&format!("the earlier version in {}", &with_int[..10])),
        "{}",
        got[0].2
    );
    assert!(
        got[1]
            .2
            .contains("`Order.x` type changed from long to string"),
        "{}",
        got[1].2
    );
    assert!(got[1].2.contains(&renamed[..10]), "{}", got[1].2);
}

fn object(props: &str, extra: &str) -> String {
    format!("{{\n  \"type\": \"object\",\n  \"properties\": {{\n{props}\n  }}{extra}\n}}\n")
}
const PID: &str = r#"    "id": {"type": "string"}"#;

#[test]
fn json_schema_open_model_addition_is_strict_only() {
    let first = object(PID, ",\n  \"required\": [\"id\"]");
    let added = object(
        &format!("{PID},\n    \"note\": {{\"type\": \"string\"}}"),
        ",\n  \"required\": [\"id\"]",
    );
    let strict = repo(
        "json-schema",
        "schemas/order.json",
        "backward",
        Some("strict"),
        &first,
    );
    strict.write("schemas/order.json", &added);
    let got = run(&strict, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].0.as_str(), got[0].1), ("schemas/order.json", 5));
    assert!(
        got[0]
            .2
            .contains("`note` property added to an open content model")
    );

    let lenient = repo(
        "json-schema",
        "schemas/order.json",
        "backward",
        Some("lenient"),
        &first,
    );
    lenient.write("schemas/order.json", &added);
    assert_eq!(run(&lenient, "HEAD"), []);
    // Lenient still rejects a new required property.
    let required = object(
        &format!("{PID},\n    \"note\": {{\"type\": \"string\"}}"),
        ",\n  \"required\": [\"id\", \"note\"]",
    );
    lenient.write("schemas/order.json", &required);
    let got = run(&lenient, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 7);
    assert!(
        got[0]
            .2
            .contains("`note` property became required: breaks backward")
    );
}

#[test]
fn json_schema_forward_and_full_transitive() {
    let closed = ",\n  \"additionalProperties\": false";
    let r = repo(
        "json-schema",
        "schemas/order.json",
        "forward",
        None,
        &object(PID, closed),
    );
    let with_n = object(
        &format!("{PID},\n    \"n\": {{\"type\": \"integer\"}}"),
        closed,
    );
    r.write("schemas/order.json", &with_n);
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 5);
    assert!(got[0].2.contains(
        "`n` property added to a closed content model (old readers reject it): breaks forward"
    ));

    // full-transitive: v2 narrowed `n` to a maximum, the base dropped it, the
    // working tree brings it back without the bound.
    r.write(
        "contracts/orders.yaml",
        &contract("json-schema", "schemas/order.json", "full", None),
    );
    r.write(
        "schemas/order.json",
        &object(
            &format!("{PID},\n    \"n\": {{\"type\": \"integer\", \"maximum\": 9}}"),
            "",
        ),
    );
    let v2 = r.commit("n with a bound");
    r.write("schemas/order.json", &object(PID, ""));
    r.commit("drop n");
    r.write(
        "schemas/order.json",
        &object(&format!("{PID},\n    \"n\": {{\"type\": \"integer\"}}"), ""),
    );
    assert_eq!(
        run(&r, "HEAD").len(),
        1,
        "full against the base: n added to an open model"
    );
    r.write(
        "contracts/orders.yaml",
        &contract("json-schema", "schemas/order.json", "full-transitive", None),
    );
    let got = run(&r, "HEAD");
    let against_v2: Vec<_> = got.iter().filter(|g| g.2.contains(&v2[..10])).collect();
    assert_eq!(against_v2.len(), 1, "{got:?}");
    assert!(
        against_v2[0]
            .2
            .contains("`n` `maximum` removed: breaks full-transitive")
    );
}

const PROTO_V1: &str = "syntax = \"proto3\";\npackage shop.v1;\n\nmessage Order {\n  string id = 1;\n  string email = 2;\n  int32 qty = 3;\n}\n";

#[test]
fn protobuf_number_reuse_removal_and_rename_note() {
    let r = repo("protobuf", "schemas/order.proto", "full", None, PROTO_V1);
    r.write(
        "schemas/order.proto",
        "syntax = \"proto3\";\npackage shop.v1;\n\nmessage Order {\n  string order_id = 1;\n  int64 phone = 2;\n}\n",
    );
    let o = r.check(Some("HEAD")).unwrap();
    let got = ev053(&o);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].1, 4, "the removal points at the message");
    assert!(
        got[0]
            .2
            .contains("`shop.v1.Order.qty` field `qty` = 3 removed without `reserved 3`")
    );
    assert_eq!(got[1].1, 6);
    assert!(got[1].2.contains(
        "`shop.v1.Order.phone` field number 2 reused: was `string email`, now `int64 phone`"
    ));
    assert!(
        o.notes
            .iter()
            .any(|n| n.contains("field 1 renamed from `id` to `order_id`")),
        "{:?}",
        o.notes
    );

    r.write(
        "schemas/order.proto",
        "syntax = \"proto3\";\npackage shop.v1;\n\nmessage Order {\n  string id = 1;\n  reserved 2, 3;\n  reserved \"email\";\n  string note = 4;\n}\n",
    );
    assert_eq!(run(&r, "HEAD"), []);
}

#[test]
fn protobuf_backward_flags_a_new_proto2_required_field() {
    let v1 = "syntax = \"proto2\";\nmessage Order {\n  optional string id = 1;\n}\n";
    let r = repo("protobuf", "schemas/order.proto", "backward", None, v1);
    r.write("schemas/order.proto", "syntax = \"proto2\";\nmessage Order {\n  optional string id = 1;\n  required int32 qty = 2;\n}\n");
    let got = run(&r, "HEAD");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, 4);
    assert!(
        got[0]
            .2
            .contains("`Order.qty` required field `qty` = 2 added: breaks backward")
    );
}

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

#[path = "compat_git/examples.rs"]
mod examples;
