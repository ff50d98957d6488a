//! jsonschema's errors turned into located PC003/PC004 issues, with the
//! known keys or allowed values as a did-you-mean.
use super::suggest::{suggest, suggest_unique};
use super::{Compiled, Issue, escape};
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use serde_json::Value as J;

pub(super) fn map_error(
    c: &Compiled,
    root: &Node,
    node: &Node,
    pointer: &str,
    err: &jsonschema::ValidationError,
) -> Vec<Issue> {
    use jsonschema::error::ValidationErrorKind as K;
    let schema_path = err.schema_path().as_str().to_string();
    let at = |rule, span, variant, vars| Issue {
        rule,
        span,
        pointer: pointer.to_string(),
        variant,
        vars,
    };
    match err.kind() {
        K::AdditionalProperties { unexpected } => {
            let parent_schema = schema_path
                .strip_suffix("/additionalProperties")
                .and_then(|p| c.schema.pointer(p));
            let known: Vec<&str> = parent_schema
                .and_then(|s| s.get("properties"))
                .and_then(J::as_object)
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            unexpected
                .iter()
                .map(|key| {
                    let span = node.entry(key).map_or(node.label(), |(k, _)| k.span);
                    let hint = suggest(key, &known)
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_else(|| format!("; known keys here: {}", known.join(", ")));
                    let mut vars = vec![
                        ("key", key.clone()),
                        ("where", place(pointer)),
                        ("hint", hint),
                    ];
                    // Only an unambiguous match is one `platcheck fix` may write.
                    if let Some(s) = suggest_unique(key, &known) {
                        vars.push(("suggestion", s.to_string()));
                    }
                    Issue {
                        rule: RuleId::PC003,
                        span,
                        pointer: format!("{pointer}/{}", escape(key)),
                        variant: "default",
                        vars,
                    }
                })
                .collect()
        }
        K::Required { property } => {
            let key = property.as_str().unwrap_or_default().to_string();
            vec![at(
                RuleId::PC004,
                node.label(),
                "required",
                vec![("key", key), ("where", place(pointer))],
            )]
        }
        K::Enum { options } => {
            let names: Vec<String> = options
                .as_array()
                .map(|a| a.iter().map(json_text).collect())
                .unwrap_or_default();
            let known: Vec<&str> = names.iter().map(String::as_str).collect();
            let allowed = names.join(", ");
            let hint = node
                .scalar_text()
                .and_then(|v| suggest(&v, &known))
                .map_or(String::new(), |s| format!("; did you mean `{s}`?"));
            vec![at(
                RuleId::PC004,
                node.span,
                "enum",
                vec![
                    (
                        "value",
                        node.scalar_text()
                            .unwrap_or_else(|| node.type_name().into()),
                    ),
                    ("where", place(pointer)),
                    ("allowed", allowed),
                    ("hint", hint),
                ],
            )]
        }
        K::Type { kind } => {
            let expected = match kind {
                jsonschema::error::TypeKind::Single(t) => t.to_string(),
                jsonschema::error::TypeKind::Multiple(ts) => ts
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            vec![at(
                RuleId::PC004,
                node.span,
                "type",
                vec![
                    ("where", place(pointer)),
                    ("actual", node.type_name().to_string()),
                    ("expected", expected),
                ],
            )]
        }
        _ => {
            let _ = root;
            vec![at(
                RuleId::PC004,
                node.span,
                "other",
                vec![("where", place(pointer)), ("detail", err.to_string())],
            )]
        }
    }
}

fn json_text(v: &J) -> String {
    match v {
        J::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `spec.ha.rpo` for messages; the document root is "the document".
pub(super) fn place(pointer: &str) -> String {
    if pointer.is_empty() {
        return "the document".into();
    }
    let dotted = pointer
        .trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".");
    format!("`{dotted}`")
}
