//! JSON Schema modes on a git history: the open content model's additions,
//! forward, and full transitive.
use super::{contract, only, repo, run};

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
    only(&got, 5, "`note` property added to an open content model");
    assert_eq!(got[0].0, "schemas/order.json");

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
    only(
        &run(&lenient, "HEAD"),
        7,
        "`note` property became required: breaks backward",
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
    only(
        &run(&r, "HEAD"),
        5,
        "`n` property added to a closed content model (old readers reject it): breaks forward",
    );

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
