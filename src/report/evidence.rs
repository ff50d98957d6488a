//! Contract values as evidence: which of an item's fields are present, which
//! are missing (exactly, element by element: `consumers[billing].retry.jitter`),
//! and which are present with a value that does not satisfy the item.
use super::checklist::{Field, Scalar};
use super::when::{holds, scalar_is};
use crate::contracts::Contract;
use crate::contracts::units::{self, Duration};
use crate::contracts::yaml::{Node, Value};
use jiff::civil::Date;

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

/// A field the item needs that the contract does not declare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub label: String,
    pub pointer: String,
    /// What the source asks for, when the checklist says.
    pub why: Option<String>,
}

/// A field that is present with a value that does not satisfy the item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortfall {
    pub label: String,
    pub pointer: String,
    pub value: String,
    /// What would satisfy it (`at least 3`, `one of all`).
    pub expected: String,
    pub why: Option<String>,
    pub line: usize,
}

/// Everything one evidence field says about a contract.
#[derive(Debug, Default)]
pub struct Found {
    pub present: Vec<Evidence>,
    pub missing: Vec<Missing>,
    pub short: Vec<Shortfall>,
}

pub struct Ctx<'a> {
    pub today: Date,
    pub line_of: &'a dyn Fn(&Node) -> usize,
    /// Whether a value names a placeholder runbook (`platcheck init`'s TODO
    /// files): such a value is missing evidence, not evidence.
    pub placeholder: &'a dyn Fn(&str) -> bool,
}

const MAX_VALUE: usize = 120;

/// Checks one field on a contract.
pub fn check(c: &Contract, field: &Field, ctx: &Ctx) -> Found {
    let mut found = Found::default();
    let segments: Vec<&str> = field.field.trim_start_matches('/').split('/').collect();
    let mut w = Walk {
        root: &c.root,
        field,
        ctx,
        found: &mut found,
    };
    w.walk(&c.root, None, &segments, Path::default(), None);
    found
}

/// Where the walk is: the JSON pointer and the readable label so far.
#[derive(Clone, Default)]
struct Path {
    pointer: String,
    label: Vec<String>,
}

impl Path {
    fn key(&self, key: &str) -> Path {
        let mut p = self.clone();
        p.pointer
            .push_str(&format!("/{}", key.replace('~', "~0").replace('/', "~1")));
        p.label.push(key.to_string());
        p
    }
    /// An element of a collection, named by what identifies it.
    fn element(&self, index: usize, name: &str) -> Path {
        let mut p = self.clone();
        p.pointer.push_str(&format!("/{index}"));
        let last = p.label.pop().unwrap_or_default();
        p.label.push(format!("{last}[{name}]"));
        p
    }
    fn label(&self) -> String {
        let l = self.label.join(".");
        l.strip_prefix("spec.").unwrap_or(&l).to_string()
    }
}

struct Walk<'a, 'b> {
    root: &'a Node,
    field: &'a Field,
    ctx: &'a Ctx<'b>,
    found: &'a mut Found,
}

impl<'a> Walk<'a, '_> {
    /// `element` is the innermost `*` element (for relative conditions),
    /// `parent` the mapping that holds `node`.
    fn walk(
        &mut self,
        node: &'a Node,
        element: Option<&'a Node>,
        rest: &[&str],
        at: Path,
        parent: Option<&'a Node>,
    ) {
        let Some((head, tail)) = rest.split_first() else {
            if node.is_null() {
                self.missing(element, at, None);
            } else if self.required(element) {
                self.leaf(node, parent, at);
            }
            return;
        };
        match (&node.value, *head) {
            (Value::Seq(items), "*") if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    let name = ["name", "group", "service"]
                        .iter()
                        .find_map(|k| item.get(k).and_then(Node::as_str))
                        .map_or(i.to_string(), str::to_string);
                    self.walk(item, Some(item), tail, at.element(i, &name), Some(node));
                }
            }
            (Value::Map(entries), "*") if !entries.is_empty() => {
                for (k, v) in entries {
                    self.walk(v, Some(v), tail, at.key(&k.name), Some(node));
                }
            }
            (_, "*") => self.missing(element, at, Some("no elements")),
            (Value::Map(_), key) => match node.get(key) {
                Some(child) => self.walk(child, element, tail, at.key(key), Some(node)),
                None => self.absent(element, &at, rest),
            },
            _ => self.absent(element, &at, rest),
        }
    }

    /// Whether the field's `when` holds here (a relative condition with no
    /// element to read it from does not: the collection's own absence is
    /// what the unconditional fields report).
    fn required(&self, element: Option<&Node>) -> bool {
        self.field
            .when
            .as_ref()
            .is_none_or(|w| holds(w, self.root, element) == Some(true))
    }

    /// The rest of the pattern is absent from `at` on: name the field, or
    /// the collection when one lies on the way (`read_replicas.query_classes`).
    fn absent(&mut self, element: Option<&Node>, at: &Path, rest: &[&str]) {
        match rest.iter().position(|s| *s == "*") {
            Some(star) => self.missing(element, full(at, &rest[..star]), Some("no elements")),
            None => self.missing(element, full(at, rest), None),
        }
    }

    fn missing(&mut self, element: Option<&Node>, at: Path, note: Option<&str>) {
        if !self.required(element) {
            return;
        }
        let why = match (note, &self.field.why) {
            (Some(n), Some(w)) => Some(format!("{n}; {w}")),
            (Some(n), None) => Some(n.to_string()),
            (None, w) => w.clone(),
        };
        self.found.missing.push(Missing {
            label: at.label(),
            pointer: at.pointer,
            why,
        });
    }

    fn leaf(&mut self, node: &'a Node, parent: Option<&'a Node>, at: Path) {
        if node.as_str().is_some_and(|v| (self.ctx.placeholder)(v)) {
            self.found.missing.push(Missing {
                label: at.label(),
                pointer: at.pointer,
                why: Some(
                    "a placeholder runbook from `platcheck init`: write the procedure and delete its TODO line"
                        .into(),
                ),
            });
            return;
        }
        let line = (self.ctx.line_of)(node);
        let value = value_text(node);
        if let Some(expected) = self.shortfall(node, parent) {
            self.found.short.push(Shortfall {
                label: at.label(),
                pointer: at.pointer.clone(),
                value: value.clone(),
                expected,
                why: self.field.why.clone(),
                line,
            });
        }
        self.found.present.push(Evidence {
            label: at.label(),
            pointer: at.pointer,
            value,
            line,
        });
    }

    /// What the value would need to be, when it falls short. Values that do
    /// not parse are the loader's PC005 and decide the item through it.
    fn shortfall(&self, node: &Node, parent: Option<&Node>) -> Option<String> {
        let f = self.field;
        if let Some(allowed) = &f.one_of
            && !node.is_null()
            && !allowed.iter().any(|a| scalar_is(node, a))
        {
            let list: Vec<String> = allowed.iter().map(Scalar::to_string).collect();
            return Some(match list.len() {
                1 => list[0].clone(),
                _ => format!("one of {}", list.join(", ")),
            });
        }
        if let Some(min) = f.min
            && let Some(v) = node.as_f64()
            && v < min
        {
            return Some(format!("at least {min}"));
        }
        if let Some(limit) = &f.at_most
            && let (Some(v), Ok(max)) = (
                duration_of(node).and_then(|d| approx_days(&d)),
                Duration::parse(limit),
            )
            && approx_days(&max).is_some_and(|m| v > m + 1e-9)
        {
            return Some(format!("at most {limit}"));
        }
        if let Some(p) = &f.fresh_within
            && let Some(date) = node.as_str().and_then(|t| units::parse_date(t).ok())
            && let Some(cadence) = relative(self.root, parent, p).and_then(duration_of)
            && let Some(due) = cadence.add_to(date)
            && due < self.ctx.today
        {
            return Some(format!(
                "no older than {cadence} before {}: it was due {due}",
                self.ctx.today
            ));
        }
        None
    }
}

/// The label of a field whose mapping is absent: the path so far, then the
/// rest of the pattern (`producer.outbox.cluster`).
fn full(at: &Path, rest: &[&str]) -> Path {
    rest.iter().fold(at.clone(), |p, seg| p.key(seg))
}

fn duration_of(node: &Node) -> Option<Duration> {
    match &node.value {
        Value::Str(s) => Duration::parse(s).ok(),
        Value::Int(0) => Some(Duration::ZERO),
        _ => None,
    }
}

/// Days, counting a calendar month as its average length (365.25 / 12).
fn approx_days(d: &Duration) -> Option<f64> {
    let days = d.months as f64 * 365.25 / 12.0 + d.millis as f64 / 86_400_000.0;
    days.is_finite().then_some(days)
}

/// A pointer from the root (`/spec/...`) or relative to `base`.
fn relative<'a>(root: &'a Node, base: Option<&'a Node>, pointer: &str) -> Option<&'a Node> {
    if pointer.starts_with('/') {
        root.pointer(pointer)
    } else {
        base?.pointer(&format!("/{pointer}"))
    }
    .filter(|n| !n.is_null())
}

/// A scalar as written, a sequence of scalars joined, or a short
/// description of a collection.
pub fn value_text(node: &Node) -> String {
    let text = match &node.value {
        Value::Seq(items) => match items
            .iter()
            .map(Node::scalar_text)
            .collect::<Option<Vec<_>>>()
        {
            Some(parts) => format!("[{}]", parts.join(", ")),
            None => crate::catalog::plural(items.len(), "entry", "entries"),
        },
        Value::Map(entries) => crate::catalog::plural(entries.len(), "key", "keys"),
        _ => node.scalar_text().unwrap_or_default(),
    };
    shorten(&text)
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

/// The item text with each `{/spec/...}` replaced by the contract's value
/// (`not declared` when absent).
pub fn render_text(text: &str, c: &Contract) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text.trim();
    while let Some(open) = rest.find("{/") {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let pointer = &rest[open + 1..open + close];
        let value = c
            .get(pointer)
            .filter(|n| !n.is_null())
            .map_or_else(|| "not declared".to_string(), value_text);
        out.push_str(&value);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
