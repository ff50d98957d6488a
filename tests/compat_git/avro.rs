//! Avro modes on a git history: backward, forward, full and transitive,
//! each judged against the versions committed before.
use super::{ID, QTY, avro, contract, only, repo, run};

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
    // Line 4 is `"fields"` of the new record.
    only(
        &run(&r, "HEAD"),
        4,
        "`Order.qty` field removed, and the old schema has no default for it: breaks forward",
    );
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
    let message = only(
        &got,
        6,
        "`Order.qty` type changed from int to long: breaks full compatibility",
    );
    assert!(message.contains("the old schema cannot read data written with the new one"));
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
