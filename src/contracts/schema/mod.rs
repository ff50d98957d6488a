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

mod errors;
mod suggest;
use errors::{map_error, place};
pub use suggest::{select_rules, suggest, suggest_unique};

pub const CLUSTER: &str = include_str!("../../../schemas/cluster.schema.json");
pub const EVENT_BOUNDARY: &str = include_str!("../../../schemas/event-boundary.schema.json");
pub const CONFIG: &str = include_str!("../../../schemas/config.schema.json");

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
    pub(super) schema: J,
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

pub(super) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
