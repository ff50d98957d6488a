//! Hover: on a rule id (in a suppression comment, the config, a doc) the
//! rule's summary and doc link; on a key of a contract or of
//! platcheck.yaml the description the JSON Schema gives it.
use crate::catalog::RuleId;
use crate::contracts::schema::SchemaKind;
use crate::contracts::yaml::{self, Node, Value};
use crate::source::SourceFile;
use serde_json::Value as J;
use std::path::Path;

/// The Markdown shown for `offset` in `text`, if anything is there.
pub fn at(path: &Path, text: &str, offset: usize) -> Option<String> {
    rule_at(text, offset).or_else(|| key_at(path, text, offset))
}

fn rule_at(text: &str, offset: usize) -> Option<String> {
    let is_word = |c: char| c.is_ascii_alphanumeric();
    let start = text[..offset].rfind(|c| !is_word(c)).map_or(0, |i| i + 1);
    let end = text[offset..]
        .find(|c| !is_word(c))
        .map_or(text.len(), |i| offset + i);
    let rule = RuleId::parse(text.get(start..end)?)?;
    let meta = rule.meta();
    let flags = section(&meta.body, "What it flags").unwrap_or_default();
    Some(format!(
        "**{rule}** `{}` ({}, fix: {})\n\n{}\n\n[{rule} documentation]({})",
        meta.name,
        meta.severity.as_str(),
        meta.fix.as_str(),
        flags.trim(),
        rule.url()
    ))
}

fn section<'a>(body: &'a str, heading: &str) -> Option<&'a str> {
    let start = body.find(&format!("## {heading}\n"))? + heading.len() + 4;
    let rest = &body[start..];
    Some(&rest[..rest.find("\n## ").unwrap_or(rest.len())])
}

fn key_at(path: &Path, text: &str, offset: usize) -> Option<String> {
    let src = SourceFile::new("", path, text);
    let docs = yaml::parse_documents(&src).ok()?;
    for doc in docs {
        let Some(segments) = find_key(&doc, offset) else {
            continue;
        };
        let kind = if path.file_name().is_some_and(|n| n == "platcheck.yaml") {
            SchemaKind::Config
        } else {
            match doc.get("kind").and_then(Node::as_str) {
                Some("Cluster") => SchemaKind::Cluster,
                Some("EventBoundary") => SchemaKind::EventBoundary,
                _ => return None,
            }
        };
        let schema: J = serde_json::from_str(kind.text()).ok()?;
        let node = walk(&schema, &schema, &segments)?;
        let description = node.get("description")?.as_str()?;
        return Some(format!("**{}**\n\n{description}", segments.join(".")));
    }
    None
}

/// The path of keys to the key written at `offset`.
fn find_key(node: &Node, offset: usize) -> Option<Vec<String>> {
    match &node.value {
        Value::Map(entries) => {
            for (k, v) in entries {
                if k.span.start <= offset && offset <= k.span.end {
                    return Some(vec![k.name.clone()]);
                }
                if let Some(mut rest) = find_key(v, offset) {
                    rest.insert(0, k.name.clone());
                    return Some(rest);
                }
            }
            None
        }
        Value::Seq(items) => items.iter().enumerate().find_map(|(i, item)| {
            let mut rest = find_key(item, offset)?;
            rest.insert(0, i.to_string());
            Some(rest)
        }),
        _ => None,
    }
}

fn resolve<'a>(root: &'a J, node: &'a J) -> &'a J {
    match node.get("$ref").and_then(J::as_str) {
        Some(r) => r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .unwrap_or(node),
        None => node,
    }
}

fn walk<'a>(root: &'a J, node: &'a J, segments: &[String]) -> Option<&'a J> {
    let node = resolve(root, node);
    let Some((head, rest)) = segments.split_first() else {
        return Some(node);
    };
    if let Some(p) = node.get("properties").and_then(|p| p.get(head)) {
        return walk(root, p, rest);
    }
    if head.parse::<usize>().is_ok()
        && let Some(items) = node.get("items")
    {
        return walk(root, items, rest);
    }
    if let Some(extra) = node.get("additionalProperties").filter(|a| a.is_object()) {
        return walk(root, extra, rest);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(found) = node
            .get(key)
            .and_then(J::as_array)
            .and_then(|alts| alts.iter().find_map(|a| walk(root, a, segments)))
        {
            return Some(found);
        }
    }
    None
}
