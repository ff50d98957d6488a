//! The embedded JSON Schemas, and validation whose errors are mapped back to
//! the exact key or value through the positioned tree (never by searching the
//! text for a key name).
use super::units;
use super::yaml::{Node, Value};
use crate::catalog::RuleId;
use crate::source::Span;
use serde_json::Value as J;
use std::collections::BTreeSet;
use std::sync::OnceLock;

pub const CLUSTER: &str = include_str!("../../schemas/cluster.schema.json");
pub const EVENT_BOUNDARY: &str = include_str!("../../schemas/event-boundary.schema.json");
pub const CONFIG: &str = include_str!("../../schemas/config.schema.json");

/// Which embedded schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    Cluster,
    EventBoundary,
    Config,
}

impl SchemaKind {
    pub fn parse(name: &str) -> Option<SchemaKind> {
        match name {
            "cluster" => Some(SchemaKind::Cluster),
            "event-boundary" => Some(SchemaKind::EventBoundary),
            "config" => Some(SchemaKind::Config),
            _ => None,
        }
    }
    pub fn text(self) -> &'static str {
        match self {
            SchemaKind::Cluster => CLUSTER,
            SchemaKind::EventBoundary => EVENT_BOUNDARY,
            SchemaKind::Config => CONFIG,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// The unit kinds a schema marks with `$ref: #/$defs/<unit>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Duration,
    Date,
    Size,
    Rows,
}

struct Compiled {
    schema: J,
    validator: jsonschema::Validator,
    /// Pointer patterns (`*` = any key or index) of unit-typed values.
    units: Vec<(Vec<String>, Unit)>,
}

fn compiled(kind: SchemaKind) -> &'static Compiled {
    static CACHE: [OnceLock<Compiled>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    CACHE[kind.index()].get_or_init(|| {
        // The schemas are embedded at build time and tests/schemas.rs checks
        // that they compile, so failure here is a build defect.
        let schema: J = serde_json::from_str(kind.text()).expect("embedded schema is JSON");
        let validator = jsonschema::options()
            .should_validate_formats(false)
            .build(&schema)
            .expect("embedded schema compiles");
        let mut units = Vec::new();
        collect_units(&schema, &schema, &mut Vec::new(), &mut units, 0);
        Compiled {
            schema,
            validator,
            units,
        }
    })
}

fn collect_units(
    root: &J,
    s: &J,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Unit)>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    if let Some(r) = s.get("$ref").and_then(J::as_str) {
        let unit = match r {
            "#/$defs/duration" => Some(Unit::Duration),
            "#/$defs/date" => Some(Unit::Date),
            "#/$defs/size" => Some(Unit::Size),
            "#/$defs/rows" => Some(Unit::Rows),
            _ => None,
        };
        if let Some(u) = unit {
            out.push((path.clone(), u));
            return;
        }
        if let Some(target) = r.strip_prefix('#').and_then(|p| root.pointer(p)) {
            collect_units(root, target, path, out, depth + 1);
        }
    }
    if let Some(props) = s.get("properties").and_then(J::as_object) {
        for (k, v) in props {
            path.push(k.clone());
            collect_units(root, v, path, out, depth + 1);
            path.pop();
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = s.get(key).filter(|v| v.is_object()) {
            path.push("*".into());
            collect_units(root, v, path, out, depth + 1);
            path.pop();
        }
    }
}

/// One schema problem, located.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub rule: RuleId,
    pub span: Span,
    pub pointer: String,
    pub variant: &'static str,
    pub vars: Vec<(&'static str, String)>,
}

/// Validates a document against a schema: PC003 (unknown key), PC004 (type,
/// required, enum, other), PC005 (unparseable unit values).
pub fn validate(kind: SchemaKind, root: &Node) -> Vec<Issue> {
    let c = compiled(kind);
    let mut issues = Vec::new();
    let mut unit_pointers = BTreeSet::new();
    for (pattern, unit) in &c.units {
        let mut found = Vec::new();
        expand(root, pattern, String::new(), &mut found);
        for (pointer, node) in found {
            if node.is_null() {
                continue;
            }
            if let Err(msg) = parse_unit(node, *unit) {
                issues.push(Issue {
                    rule: RuleId::PC005,
                    span: node.span,
                    pointer: pointer.clone(),
                    variant: "default",
                    vars: vec![("detail", msg)],
                });
            }
            unit_pointers.insert(pointer);
        }
    }
    out_of_range(root, String::new(), &mut issues);
    let instance = root.to_json();
    for err in c.validator.iter_errors(&instance) {
        let pointer = err.instance_path().as_str().to_string();
        if unit_pointers.contains(&pointer) {
            continue;
        }
        let node = root.pointer(&pointer).unwrap_or(root);
        issues.extend(map_error(c, root, node, &pointer, &err));
    }
    // A value of the wrong type is not also "not in the enum".
    let typed: BTreeSet<String> = issues
        .iter()
        .filter(|i| i.variant == "type")
        .map(|i| i.pointer.clone())
        .collect();
    issues.retain(|i| i.variant != "enum" || !typed.contains(&i.pointer));
    issues.sort_by(|a, b| (a.span, &a.pointer).cmp(&(b.span, &b.pointer)));
    issues.dedup();
    issues
}

/// PC004 for integers outside i64: every reader would take them for
/// "not declared", so the value is reported where it is written.
fn out_of_range(node: &Node, pointer: String, out: &mut Vec<Issue>) {
    if let Value::BigInt(text) = &node.value {
        out.push(Issue {
            rule: RuleId::PC004,
            span: node.span,
            variant: "range",
            vars: vec![("where", place(&pointer)), ("value", text.clone())],
            pointer,
        });
        return;
    }
    for (i, item) in node.as_seq().iter().enumerate() {
        out_of_range(item, format!("{pointer}/{i}"), out);
    }
    for (k, v) in node.entries() {
        out_of_range(v, format!("{pointer}/{}", escape(&k.name)), out);
    }
}

/// Parses a unit-typed node; the error names what was expected.
pub fn parse_unit(node: &Node, unit: Unit) -> Result<(), String> {
    let text = match (node.scalar_text(), unit) {
        (Some(t), Unit::Duration) if node.as_i64() == Some(0) || node.as_str().is_some() => t,
        (Some(t), Unit::Size | Unit::Rows)
            if node.as_i64().is_some_and(|i| i >= 0) || node.as_str().is_some() =>
        {
            t
        }
        (Some(t), Unit::Date) if node.as_str().is_some() => t,
        _ => format!("a {}", node.type_name()),
    };
    match unit {
        Unit::Duration => units::Duration::parse(&text).map(drop),
        Unit::Date => units::parse_date(&text).map(drop),
        Unit::Size => units::parse_size(&text).map(drop),
        Unit::Rows => units::parse_rows(&text).map(drop),
    }
}

fn expand<'a>(
    node: &'a Node,
    pattern: &[String],
    pointer: String,
    out: &mut Vec<(String, &'a Node)>,
) {
    let Some((head, rest)) = pattern.split_first() else {
        out.push((pointer, node));
        return;
    };
    if head == "*" {
        for (i, item) in node.as_seq().iter().enumerate() {
            expand(item, rest, format!("{pointer}/{i}"), out);
        }
        for (k, v) in node.entries() {
            expand(v, rest, format!("{pointer}/{}", escape(&k.name)), out);
        }
    } else if let Some(child) = node.get(head) {
        expand(child, rest, format!("{pointer}/{}", escape(head)), out);
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn map_error(
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
fn place(pointer: &str) -> String {
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

/// A near-miss suggestion: same name ignoring case and `-`/`_`, or within a
/// small edit distance.
/// A rule selector's rules, or the message for one that names none (with a
/// did-you-mean among rule ids and names).
pub fn select_rules(key: &str) -> Result<(u8, Vec<RuleId>), String> {
    crate::catalog::select(key).ok_or_else(|| {
        let mut names: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        names.extend(RuleId::ALL.iter().map(|r| r.meta().name.as_str()));
        let hint = suggest(&key.to_ascii_uppercase(), &names)
            .or_else(|| suggest(key, &names))
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_else(|| {
                "; `platcheck rules` lists them (ids, names, families like MG, prefixes like MG03*)"
                    .into()
            });
        format!("unknown rule `{key}`{hint}")
    })
}

pub fn suggest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let k = norm(key);
    if let Some(exact) = known.iter().find(|c| norm(c) == k) {
        return Some(exact);
    }
    // Long names (rule names) tolerate a typo more per word.
    let limit = match k.len() {
        0..=4 => 1,
        5..=15 => 2,
        _ => 3,
    };
    known
        .iter()
        .map(|c| (edit_distance(&k, &norm(c)), *c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// The one close match of `key` among `known`: `None` when none is close
/// or several are equally close.
pub fn suggest_unique<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let k = norm(key);
    let exact: Vec<&&str> = known.iter().filter(|c| norm(c) == k).collect();
    if let [one] = exact.as_slice() {
        return Some(one);
    }
    let limit = if k.len() <= 4 { 1 } else { 2 };
    let scored: Vec<(usize, &str)> = known
        .iter()
        .map(|c| (edit_distance(&k, &norm(c)), *c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    let best = scored.iter().map(|(d, _)| *d).min()?;
    let mut at_best = scored.iter().filter(|(d, _)| *d == best);
    let first = at_best.next()?.1;
    at_best.next().is_none().then_some(first)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let known = ["rpo", "rto", "topology", "failover_test"];
        assert_eq!(suggest("rpoo", &known), Some("rpo"));
        assert_eq!(suggest("Topology", &known), Some("topology"));
        assert_eq!(suggest("failover-test", &known), Some("failover_test"));
        assert_eq!(suggest("banana", &known), None);
    }
}
