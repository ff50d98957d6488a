use super::*;

fn diff(old: &str, new: &str, policy: Policy) -> Vec<(String, String, bool, bool)> {
    compare(&parse(old).unwrap(), &parse(new).unwrap(), policy)
        .into_iter()
        .map(|b| (b.path, b.change, b.backward, b.forward))
        .collect()
}

const OPEN: &str = r#"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}"#;

#[test]
fn optional_property_added_to_open_model_is_strict_only() {
    let new = r#"{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"}},"required":["id"]}"#;
    assert_eq!(
        diff(OPEN, new, Policy::Strict),
        [(
            "note".into(),
            "property added to an open content model (old data may hold any value under this name)"
                .into(),
            true,
            false
        )]
    );
    assert!(diff(OPEN, new, Policy::Lenient).is_empty());
}

#[test]
fn closed_model_add_and_remove() {
    let closed =
        r#"{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}"#;
    let added = r#"{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"additionalProperties":false}"#;
    let d = diff(closed, added, Policy::Strict);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].2, d[0].3), (false, true));
    let d = diff(added, closed, Policy::Lenient);
    assert_eq!(d[0].0, "n");
    assert!(
        d[0].1
            .starts_with("property removed from a closed content model")
    );
    assert_eq!((d[0].2, d[0].3), (true, false));
}

#[test]
fn required_type_and_enum_changes() {
    let base = r#"{"type":"object","properties":{"n":{"type":["integer","null"]},"s":{"enum":["a","b"]}}}"#;
    let new = r#"{"type":"object","properties":{"n":{"type":"number"},"s":{"enum":["a","c"]}},"required":["n"]}"#;
    let d = diff(base, new, Policy::Strict);
    assert!(d.contains(&(
        "n".into(),
        "type changed from integer|null to number".into(),
        true,
        true
    )));
    assert!(d.contains(&("s".into(), "enum value \"b\" removed".into(), true, false)));
    assert!(d.contains(&("s".into(), "enum value \"c\" added".into(), false, true)));
    assert!(d.contains(&("n".into(), "property became required".into(), true, false)));
}

#[test]
fn additional_properties_toggle_nested_objects_and_items() {
    let old = r#"{"type":"object","properties":{"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"}}}}}}"#;
    let new = r#"{"type":"object","properties":{"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"integer"}},"additionalProperties":false}}}}"#;
    let d = diff(old, new, Policy::Strict);
    assert!(d.contains(&(
        "lines[].sku".into(),
        "type changed from string to integer".into(),
        true,
        true
    )));
    assert!(d.contains(&(
        "lines[]".into(),
        "content model closed (`additionalProperties: false`)".into(),
        true,
        false
    )));
}

#[test]
fn refs_resolve_and_bad_refs_are_located() {
    let old = r##"{"$defs":{"A":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}"##;
    let new = r##"{"$defs":{"A":{"type":"string","maxLength":8}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}"##;
    let d = diff(old, new, Policy::Strict);
    assert_eq!(
        d,
        [("a".into(), "`maxLength: 8` added".into(), true, false)]
    );
    let text = r##"{"properties":{"a":{"$ref":"#/$defs/Nope"}}}"##;
    let Err(e) = parse(text) else {
        panic!("a dangling $ref must not parse")
    };
    assert_eq!(&text[e.span.start..e.span.end], "\"#/$defs/Nope\"");
    assert!(parse("[1]").is_err());
}

#[test]
fn recursive_refs_terminate() {
    let tree = r##"{"type":"object","properties":{"l":{"$ref":"#"},"r":{"$ref":"#"},"v":{"type":"string"}}}"##;
    let tree2 = r##"{"type":"object","properties":{"l":{"$ref":"#"},"r":{"$ref":"#"},"v":{"type":"integer"}}}"##;
    let d = diff(tree, tree2, Policy::Strict);
    assert_eq!(
        d,
        [(
            "v".into(),
            "type changed from string to integer".into(),
            true,
            true
        )]
    );
}
