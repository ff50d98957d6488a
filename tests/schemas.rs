//! The public JSON Schemas: valid, closed, and every property documented so
//! editors can show it.
use platcheck::contracts::schema::SchemaKind;
use serde_json::Value;

fn walk(path: &str, s: &Value, problems: &mut Vec<String>) {
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        if s.get("additionalProperties").is_none() {
            problems.push(format!("{path}: object without additionalProperties"));
        }
        for (k, v) in props {
            let p = format!("{path}/{k}");
            if v.get("description")
                .and_then(Value::as_str)
                .is_none_or(|d| d.trim().is_empty())
            {
                problems.push(format!("{p}: no description"));
            }
            walk(&p, v, problems);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = s.get(key).filter(|v| v.is_object()) {
            walk(&format!("{path}/{key}"), v, problems);
        }
    }
    if let Some(defs) = s.get("$defs").and_then(Value::as_object) {
        for (k, v) in defs {
            walk(&format!("{path}/$defs/{k}"), v, problems);
        }
    }
}

#[test]
fn schemas_compile_are_closed_and_documented() {
    for kind in [
        SchemaKind::Cluster,
        SchemaKind::EventBoundary,
        SchemaKind::Config,
    ] {
        let schema: Value = serde_json::from_str(kind.text()).unwrap();
        jsonschema::draft202012::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        jsonschema::validator_for(&schema).unwrap();
        let mut problems = Vec::new();
        walk("", &schema, &mut problems);
        assert!(problems.is_empty(), "{kind:?}:\n{}", problems.join("\n"));
    }
}
