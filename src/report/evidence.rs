//! Contract values as evidence: expanding `*` in evidence pointers, labels a
//! reviewer can read (`pools[checkout-api].pool_size`), and matching finding
//! pointers against the patterns.
use crate::contracts::Contract;
use crate::contracts::yaml::{Node, Value};

/// One contract value shown next to a checklist item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// `ha.rpo`, `connections.pools[checkout-api].pool_size`.
    pub label: String,
    pub pointer: String,
    /// The value as written (sequences of scalars joined with `, `).
    pub value: String,
    pub line: usize,
}

const MAX_VALUE: usize = 120;

/// Every present value matching `pattern`, in document order.
pub fn collect(c: &Contract, pattern: &str, line_of: &dyn Fn(&Node) -> usize) -> Vec<Evidence> {
    let mut out = Vec::new();
    let segments: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    walk(
        &c.root,
        &segments,
        String::new(),
        Vec::new(),
        &mut |pointer, label, node| {
            if let Some(value) = value_text(node) {
                out.push(Evidence {
                    label: label.strip_prefix("spec.").unwrap_or(&label).to_string(),
                    pointer,
                    value,
                    line: line_of(node),
                });
            }
        },
    );
    out
}

fn walk(
    node: &Node,
    rest: &[&str],
    pointer: String,
    label: Vec<String>,
    found: &mut dyn FnMut(String, String, &Node),
) {
    let Some((head, tail)) = rest.split_first() else {
        if !node.is_null() {
            found(pointer, label.join("."), node);
        }
        return;
    };
    let mut step = |key: &str, shown: String, child: &Node| {
        let mut l = label.clone();
        l.push(shown);
        let p = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
        walk(child, tail, p, l, found);
    };
    match (&node.value, *head) {
        (Value::Seq(items), "*") => {
            for (i, item) in items.iter().enumerate() {
                // Name the element by what identifies it, not its index.
                let name = ["name", "group", "service"]
                    .iter()
                    .find_map(|k| item.get(k).and_then(Node::as_str))
                    .map_or(i.to_string(), str::to_string);
                let last = label.last().cloned().unwrap_or_default();
                let mut l = label.clone();
                l.pop();
                l.push(format!("{last}[{name}]"));
                let p = format!("{pointer}/{i}");
                walk(item, tail, p, l, found);
            }
        }
        (Value::Map(entries), "*") => {
            for (k, v) in entries {
                step(&k.name, k.name.clone(), v);
            }
        }
        (Value::Map(_), key) => {
            if let Some(child) = node.get(key) {
                step(key, key.to_string(), child);
            }
        }
        _ => {}
    }
}

/// A scalar as written, or a sequence of scalars joined; `None` for
/// mappings (evidence points at leaves).
pub fn value_text(node: &Node) -> Option<String> {
    let text = match &node.value {
        Value::Seq(items) => {
            let parts: Option<Vec<String>> = items.iter().map(Node::scalar_text).collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Map(_) => return None,
        _ => node.scalar_text()?,
    };
    Some(shorten(&text))
}

fn shorten(s: &str) -> String {
    let one_line = s.replace(['\r', '\n'], " ");
    if one_line.chars().count() <= MAX_VALUE {
        return one_line;
    }
    let cut: String = one_line.chars().take(MAX_VALUE - 1).collect();
    format!("{cut}…")
}

/// Whether `pointer` is the value a pattern names, or lies inside it.
pub fn under_pattern(pattern: &str, pointer: &str) -> bool {
    let pat: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    let ptr: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    ptr.len() >= pat.len() && pat.iter().zip(&ptr).all(|(a, b)| *a == "*" || a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contracts::Kind;
    use crate::contracts::yaml::parse_documents;
    use crate::source::SourceFile;

    fn contract(text: &str) -> (SourceFile, Contract) {
        let src = SourceFile::new("c.yaml", "c.yaml", text);
        let root = parse_documents(&src).unwrap().remove(0);
        let c = Contract {
            file: 0,
            kind: Kind::Cluster,
            name: "x".into(),
            root,
        };
        (src, c)
    }

    #[test]
    fn wildcards_name_elements_and_skip_absent_values() {
        let (src, c) = contract(
            "spec:\n  connections:\n    pools:\n      - service: api\n        pool_size: 20\n      - pool_size: 5\n      - service: worker\n  capacity:\n    dimensions:\n      storage: {limit: 2TiB}\n      iops: {alert_at: [70, 80]}\n",
        );
        let line = |n: &Node| src.line_col(n.span.start).line;
        let pools = collect(&c, "/spec/connections/pools/*/pool_size", &line);
        let labels: Vec<(&str, &str, usize)> = pools
            .iter()
            .map(|e| (e.label.as_str(), e.value.as_str(), e.line))
            .collect();
        assert_eq!(
            labels,
            [
                ("connections.pools[api].pool_size", "20", 5),
                ("connections.pools[1].pool_size", "5", 6)
            ]
        );
        assert_eq!(pools[1].pointer, "/spec/connections/pools/1/pool_size");
        let alerts = collect(&c, "/spec/capacity/dimensions/*/alert_at", &line);
        assert_eq!(alerts.len(), 1);
        assert_eq!(alerts[0].label, "capacity.dimensions.iops.alert_at");
        assert_eq!(alerts[0].value, "[70, 80]");
        assert!(collect(&c, "/spec/ha/rpo", &line).is_empty());
        assert!(collect(&c, "/spec/capacity/dimensions", &line).is_empty());
    }

    #[test]
    fn long_values_are_shortened_on_one_line() {
        let long = "x".repeat(300);
        assert_eq!(shorten(&long).chars().count(), MAX_VALUE);
        assert_eq!(shorten("a\nb"), "a b");
    }

    #[test]
    fn pointers_match_patterns_at_or_below() {
        assert!(under_pattern("/spec/ha/rpo", "/spec/ha/rpo"));
        assert!(under_pattern("/spec/backup/types", "/spec/backup/types/1"));
        assert!(under_pattern(
            "/spec/consumers/*/retry/jitter",
            "/spec/consumers/2/retry/jitter"
        ));
        assert!(!under_pattern("/spec/ha/rpo", "/spec/ha"));
        assert!(!under_pattern("/spec/ha/rpo", "/spec/ha/rto"));
    }
}
