//! Protobuf on a git history: field numbers reused or removed, renames,
//! and proto2 required fields.
use super::{ev053, only, repo, run};

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
    only(
        &run(&r, "HEAD"),
        4,
        "`Order.qty` required field `qty` = 2 added: breaks backward",
    );
}
