//! Conditions of the checklist data (`when:`): tests on contract values,
//! where a pointer with `*` matches when any element does, and a pointer
//! without a leading `/` reads the element of the field's last `*`.
use super::checklist::{Cond, Scalar, When};
use crate::contracts::yaml::{Node, Value};

/// Whether a scalar of the data equals a contract value (same type only:
/// `true` is not `"true"`).
pub fn scalar_is(node: &Node, s: &Scalar) -> bool {
    match (s, &node.value) {
        (Scalar::Bool(b), Value::Bool(v)) => b == v,
        (Scalar::Int(i), Value::Int(v)) => i == v,
        (Scalar::Str(t), Value::Str(v)) => t == v,
        _ => false,
    }
}

/// Every non-null node a pointer with `*` names.
pub fn resolve_all<'a>(node: &'a Node, pointer: &str) -> Vec<&'a Node> {
    fn go<'a>(node: &'a Node, rest: &[&str], out: &mut Vec<&'a Node>) {
        let Some((head, tail)) = rest.split_first() else {
            if !node.is_null() {
                out.push(node);
            }
            return;
        };
        match (&node.value, *head) {
            (Value::Seq(items), "*") => items.iter().for_each(|i| go(i, tail, out)),
            (Value::Map(entries), "*") => entries.iter().for_each(|(_, v)| go(v, tail, out)),
            (Value::Map(_), key) => {
                if let Some(child) = node.get(key) {
                    go(child, tail, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let segments: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    go(node, &segments, &mut out);
    out
}

/// Whether a `when` holds; `None` when a relative condition has no element.
pub fn holds(when: &When, root: &Node, element: Option<&Node>) -> Option<bool> {
    let mut all = true;
    for c in when.conds() {
        all &= cond(c, root, element)?;
    }
    Some(all)
}

fn cond(c: &Cond, root: &Node, element: Option<&Node>) -> Option<bool> {
    match c {
        Cond::Any { any } => {
            let mut unknown = false;
            for c in any {
                match cond(c, root, element) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unknown = true,
                }
            }
            (!unknown).then_some(false)
        }
        Cond::Field(f) => {
            let nodes = if f.field.starts_with('/') {
                resolve_all(root, &f.field)
            } else {
                resolve_all(element?, &f.field)
            };
            let mut ok = true;
            if let Some(p) = f.present {
                ok &= nodes.is_empty() != p;
            }
            if let Some(list) = &f.one_of {
                ok &= nodes.iter().any(|n| list.iter().any(|s| scalar_is(n, s)));
            }
            if let Some(list) = &f.not_in {
                ok &= !nodes.iter().any(|n| list.iter().any(|s| scalar_is(n, s)));
            }
            if let Some(min) = f.min {
                ok &= nodes.iter().any(|n| n.as_f64().is_some_and(|v| v >= min));
            }
            Some(ok)
        }
    }
}
