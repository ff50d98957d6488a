//! JSON Schema compatibility as the Confluent registry judges it: a change
//! that makes the new schema reject something the old one accepted
//! *narrows* it (old data fails new readers: breaks backward); a change that
//! makes it accept more *widens* it (new data fails old readers: breaks
//! forward). Under the strict policy an open content model counts: adding a
//! property to an open object narrows it, because the old schema allowed any
//! value under that name.
use super::json::{self, Json, Value};
use super::{Break, ParseError, Policy};
use crate::source::Span;
use std::collections::HashSet;

pub struct Doc {
    root: Json,
}

pub fn parse(text: &str) -> Result<Doc, ParseError> {
    let root = json::parse(text)?;
    if !matches!(root.value, Value::Obj(_) | Value::Bool(_)) {
        return Err(ParseError {
            span: root.span,
            message: "a JSON Schema must be an object or a boolean".into(),
        });
    }
    check_refs(&root, &root, 0)?;
    Ok(Doc { root })
}

/// Every local `$ref` must resolve, or the comparison would silently skip
/// the part of the schema it stands for.
fn check_refs(root: &Json, j: &Json, depth: usize) -> Result<(), ParseError> {
    if depth > 100 {
        return Ok(());
    }
    for (name, _, v) in j.members() {
        if name == "$ref"
            && let Some(r) = v.as_str()
            && r.starts_with('#')
            && resolve(root, r).is_none()
        {
            return Err(ParseError {
                span: v.span,
                message: format!("`$ref` `{r}` points at nothing in this file"),
            });
        }
        check_refs(root, v, depth + 1)?;
    }
    for v in j.as_arr().unwrap_or(&[]) {
        check_refs(root, v, depth + 1)?;
    }
    Ok(())
}

fn resolve<'a>(root: &'a Json, r: &str) -> Option<&'a Json> {
    let ptr = r.strip_prefix('#')?;
    let mut node = root;
    for raw in ptr.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        node = match &node.value {
            Value::Obj(_) => node.get(&token)?,
            Value::Arr(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// A schema position: accepts everything, nothing, or what an object says.
#[derive(Clone, Copy)]
pub(super) enum S<'a> {
    Any,
    Nothing,
    Obj(&'a Json),
}

pub fn compare(old: &Doc, new: &Doc, policy: Policy) -> Vec<Break> {
    let mut c = Cmp {
        old: &old.root,
        new: &new.root,
        policy,
        out: Vec::new(),
        depth: 0,
        seen: HashSet::new(),
    };
    let (o, n) = (c.view(true, &old.root), c.view(false, &new.root));
    c.node(o, n, new.root.label(), "(root)");
    c.out
}

pub(super) struct Cmp<'a> {
    old: &'a Json,
    new: &'a Json,
    pub(super) policy: Policy,
    out: Vec<Break>,
    depth: usize,
    /// (old, new) object pairs already compared: a `$ref` cycle, or two
    /// paths to one definition, is walked once instead of exponentially.
    seen: HashSet<(usize, usize)>,
}

pub(super) fn join(path: &str, name: &str) -> String {
    if path == "(root)" {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

pub(super) fn at(n: S, key: &str, fallback: Span) -> Span {
    match n {
        S::Obj(j) => j.get(key).map_or(j.label(), Json::label),
        _ => fallback,
    }
}

const MAX_KEYS: [&str; 5] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
const MIN_KEYS: [&str; 5] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];

impl<'a> Cmp<'a> {
    pub(super) fn view(&self, old: bool, j: &'a Json) -> S<'a> {
        let root = if old { self.old } else { self.new };
        let mut j = j;
        for _ in 0..16 {
            match &j.value {
                Value::Bool(true) => return S::Any,
                Value::Bool(false) => return S::Nothing,
                Value::Obj(m) if m.is_empty() => return S::Any,
                Value::Obj(_) => match j.get("$ref").and_then(Json::as_str) {
                    Some(r) => match resolve(root, r) {
                        Some(target) => j = target,
                        None => return S::Any,
                    },
                    None => return S::Obj(j),
                },
                _ => return S::Any,
            }
        }
        S::Any
    }

    pub(super) fn push(
        &mut self,
        path: &str,
        change: String,
        span: Span,
        narrows: bool,
        widens: bool,
    ) {
        self.out.push(Break {
            path: path.to_string(),
            change,
            span,
            backward: narrows,
            forward: widens,
        });
    }

    pub(super) fn node(&mut self, o: S<'a>, n: S<'a>, anchor: Span, path: &str) {
        if self.depth > 64 {
            return;
        }
        let span = match n {
            S::Obj(j) => j.label(),
            _ => anchor,
        };
        match (o, n) {
            (S::Any, S::Any) | (S::Nothing, S::Nothing) => {}
            (S::Any, _) => self.push(
                path,
                "now constrained (was any value)".into(),
                span,
                true,
                false,
            ),
            (_, S::Any) => self.push(
                path,
                "no longer constrained (now any value)".into(),
                span,
                false,
                true,
            ),
            (S::Nothing, _) => {
                self.push(path, "now allowed (was `false`)".into(), span, false, true)
            }
            (_, S::Nothing) => self.push(path, "now forbidden (`false`)".into(), span, true, false),
            (S::Obj(oj), S::Obj(nj)) => {
                if !self.seen.insert((oj.span.start, nj.span.start)) {
                    return;
                }
                self.depth += 1;
                self.types(oj, nj, path);
                self.enums(oj, nj, path);
                self.bounds(oj, nj, path);
                if is_object(oj) || is_object(nj) {
                    self.object(oj, nj, path);
                }
                self.items(oj, nj, path);
                for key in ["anyOf", "oneOf", "allOf"] {
                    self.combinator(oj, nj, key, path);
                }
                self.depth -= 1;
            }
        }
    }

    fn types(&mut self, o: &Json, n: &Json, path: &str) {
        let (ot, nt) = (types(o), types(n));
        let accepts = |set: &Option<Vec<String>>, t: &str| match set {
            None => true,
            Some(s) => s
                .iter()
                .any(|x| x == t || (x == "number" && t == "integer")),
        };
        let all = |s: &Option<Vec<String>>| s.clone().unwrap_or_else(|| vec!["any".into()]);
        let narrows = match &ot {
            None => nt.is_some(),
            Some(o) => o.iter().any(|t| !accepts(&nt, t)),
        };
        let widens = match &nt {
            None => ot.is_some(),
            Some(n) => n.iter().any(|t| !accepts(&ot, t)),
        };
        if narrows || widens {
            let verb = match (narrows, widens) {
                (true, false) => "narrowed",
                (false, true) => "widened",
                _ => "changed",
            };
            let change = format!(
                "type {verb} from {} to {}",
                all(&ot).join("|"),
                all(&nt).join("|")
            );
            self.push(
                path,
                change,
                at(S::Obj(n), "type", n.label()),
                narrows,
                widens,
            );
        }
    }

    fn enums(&mut self, o: &Json, n: &Json, path: &str) {
        let values = |j: &Json| -> Option<Vec<String>> {
            if let Some(c) = j.get("const") {
                return Some(vec![c.text()]);
            }
            j.get("enum")
                .and_then(Json::as_arr)
                .map(|a| a.iter().map(Json::text).collect())
        };
        let span = n
            .get("enum")
            .or_else(|| n.get("const"))
            .map_or(n.label(), Json::label);
        match (values(o), values(n)) {
            (None, None) => {}
            (None, Some(_)) => self.push(
                path,
                "now restricted to an `enum`".into(),
                span,
                true,
                false,
            ),
            (Some(_), None) => {
                self.push(path, "`enum` restriction removed".into(), span, false, true)
            }
            (Some(ov), Some(nv)) => {
                let removed: Vec<&String> = ov.iter().filter(|v| !nv.contains(v)).collect();
                let added: Vec<&String> = nv.iter().filter(|v| !ov.contains(v)).collect();
                if !removed.is_empty() {
                    let list: Vec<&str> = removed.iter().map(|s| s.as_str()).collect();
                    self.push(
                        path,
                        format!("enum value {} removed", list.join(", ")),
                        span,
                        true,
                        false,
                    );
                }
                if !added.is_empty() {
                    let list: Vec<&str> = added.iter().map(|s| s.as_str()).collect();
                    self.push(
                        path,
                        format!("enum value {} added", list.join(", ")),
                        span,
                        false,
                        true,
                    );
                }
            }
        }
    }

    fn bounds(&mut self, o: &Json, n: &Json, path: &str) {
        for (keys, is_max) in [(MAX_KEYS, true), (MIN_KEYS, false)] {
            for key in keys {
                let (ov, nv) = (
                    o.get(key).and_then(Json::as_f64),
                    n.get(key).and_then(Json::as_f64),
                );
                let span = at(S::Obj(n), key, n.label());
                let (change, narrows) = match (ov, nv) {
                    (None, Some(v)) => (format!("`{key}: {v}` added"), true),
                    (Some(_), None) => (format!("`{key}` removed"), false),
                    (Some(a), Some(b)) if a != b => {
                        let tighter = if is_max { b < a } else { b > a };
                        let verb = if b < a { "lowered" } else { "raised" };
                        (format!("`{key}` {verb} from {a} to {b}"), tighter)
                    }
                    _ => continue,
                };
                self.push(path, change, span, narrows, !narrows);
            }
        }
        let (op, np) = (
            o.get("pattern").map(Json::text),
            n.get("pattern").map(Json::text),
        );
        if op != np {
            let span = at(S::Obj(n), "pattern", n.label());
            let (narrows, widens) = (np.is_some(), op.is_some());
            self.push(path, "`pattern` changed".into(), span, narrows, widens);
        }
    }

    pub(super) fn additional(&self, old: bool, j: &'a Json) -> S<'a> {
        match j.get("additionalProperties") {
            None => S::Any,
            Some(a) => self.view(old, a),
        }
    }
}

fn types(j: &Json) -> Option<Vec<String>> {
    let t = j.get("type")?;
    match &t.value {
        Value::Str(s) => Some(vec![s.clone()]),
        Value::Arr(a) => Some(
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect(),
        ),
        _ => None,
    }
}

fn is_object(j: &Json) -> bool {
    j.get("properties").is_some()
        || j.get("additionalProperties").is_some()
        || j.get("required").is_some()
        || types(j).is_some_and(|t| t.iter().any(|x| x == "object"))
}

#[cfg(test)]
#[path = "jsonschema_tests.rs"]
mod tests;
