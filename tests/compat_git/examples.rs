//! examples/violations carries schema evolutions for EV053; this commits
//! their earlier versions to a copy of the example in a temporary git
//! repository, lays the current files over them, and checks with --base.
use super::common::{self, GitRepo};
use super::ev053;

const ORDER_BEFORE: &str = r#"{
  "type": "record",
  "name": "OrderConfirmed",
  "namespace": "shop.orders",
  "fields": [
    {"name": "order_id", "type": "string"},
    {"name": "customer_id", "type": "string"},
    {"name": "confirmed_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {
      "name": "lines",
      "type": {
        "type": "array",
        "items": {
          "type": "record",
          "name": "OrderLine",
          "fields": [
            {"name": "sku", "type": "string"},
            {"name": "quantity", "type": "int"},
            {"name": "unit_price_cents", "type": "long"},
            {"name": "discount_cents", "type": "long"}
          ]
        }
      }
    },
    {"name": "total_cents", "type": "long"}
  ]
}
"#;

const PAYMENT_BEFORE: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "PaymentCaptured",
  "type": "object",
  "properties": {
    "payment_id": {"type": "string"},
    "order_id": {"type": "string"},
    "amount_cents": {"type": "integer", "minimum": 0},
    "currency": {"type": "string", "enum": ["EUR", "USD", "GBP"]},
    "captured_at": {"type": "string", "format": "date-time"}
  },
  "required": ["payment_id", "order_id", "amount_cents", "currency", "captured_at"]
}
"#;

#[test]
fn examples_violations_raise_ev053_against_their_earlier_schemas() {
    let example = common::root().join("examples/violations");
    let r = GitRepo::new();
    common::copy_tree(&example, r.path(), None);
    if !r.path().join("platcheck.yaml").exists() {
        r.write(
            "platcheck.yaml",
            "version: 1\ntoday: 2026-11-30\ninclude: [contracts/**]\n",
        );
    }
    r.write("schemas/order_confirmed.avsc", ORDER_BEFORE);
    r.write("schemas/payment_captured.json", PAYMENT_BEFORE);
    r.commit("schemas as released");
    common::copy_tree(&example.join("schemas"), &r.path().join("schemas"), None);

    let got = ev053(&r.check(Some("HEAD")).expect("run succeeds"));
    let at = |file: &str, line: usize, text: &str| {
        assert!(
            got.iter()
                .any(|g| g.0 == file && g.1 == line && g.2.contains(text)),
            "no EV053 at {file}:{line} containing `{text}` in {got:#?}"
        );
    };
    at(
        "schemas/order_confirmed.avsc",
        17,
        "`OrderConfirmed.lines[].discount_cents` field removed",
    );
    at(
        "schemas/order_confirmed.avsc",
        26,
        "`OrderConfirmed.currency` field added without a default: breaks full",
    );
    at(
        "schemas/payment_captured.json",
        9,
        "`currency` enum value \"GBP\" removed: breaks backward",
    );
    at(
        "schemas/payment_captured.json",
        11,
        "`card_last4` property added to an open content model",
    );
    at(
        "schemas/stock_reserved.proto",
        9,
        "cannot read this protobuf file",
    );
    assert_eq!(got.len(), 5, "{got:#?}");
}
