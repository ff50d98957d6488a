//! The positioned tree: a YAML value with the span of every key and value,
//! and the lookups rules use (keys, RFC 6901 pointers, typed scalars).
use crate::source::Span;

/// A mapping key and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer literal outside i64: kept as written so the schema check
    /// reports it (PC004) instead of a rule reading it as absent.
    BigInt(String),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Map),
}

/// A mapping's entries in source order, with an index by key name for
/// mappings large enough that a scan costs more than a binary search.
/// Derefs to the entries (`&[(Key, Node)]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Map(Box<Entries>);

#[derive(Clone, Debug, PartialEq)]
struct Entries {
    entries: Box<[(Key, Node)]>,
    /// Entry positions sorted by (name, position); empty for small maps.
    by_name: Box<[u32]>,
}

/// Up to this many entries a scan is as fast as the index (contracts'
/// mappings are mostly this small).
const SCAN_MAX: usize = 8;

impl Map {
    /// The map of `entries`, or `None` when two keys have the same name
    /// (the fast reader leaves duplicates to serde-saphyr's error).
    pub(super) fn new(entries: Vec<(Key, Node)>) -> Option<Map> {
        let map = Map::from(entries);
        let unique = if map.0.by_name.is_empty() {
            let e = &map.0.entries;
            (1..e.len()).all(|i| e[..i].iter().all(|(k, _)| k.name != e[i].0.name))
        } else {
            let name = |i: &u32| &map.0.entries[*i as usize].0.name;
            map.0.by_name.windows(2).all(|w| name(&w[0]) != name(&w[1]))
        };
        unique.then_some(map)
    }

    /// The first entry named `key` (in source order).
    pub fn find(&self, key: &str) -> Option<&(Key, Node)> {
        self.position(key).map(|i| &self.0.entries[i])
    }

    fn position(&self, key: &str) -> Option<usize> {
        let e = &self.0.entries;
        if self.0.by_name.is_empty() {
            return e.iter().position(|(k, _)| k.name == key);
        }
        let ix = &self.0.by_name;
        let at = ix.partition_point(|&i| e[i as usize].0.name.as_str() < key);
        ix.get(at)
            .map(|&i| i as usize)
            .filter(|&i| e[i].0.name == key)
    }

    fn find_mut(&mut self, key: &str) -> Option<&mut Node> {
        let i = self.position(key)?;
        Some(&mut self.0.entries[i].1)
    }
}

impl From<Vec<(Key, Node)>> for Map {
    fn from(entries: Vec<(Key, Node)>) -> Map {
        let entries = entries.into_boxed_slice();
        let by_name = if entries.len() > SCAN_MAX && u32::try_from(entries.len()).is_ok() {
            let mut ix: Vec<u32> = (0..entries.len() as u32).collect();
            // Stable: equal names keep source order, so lookups find the first.
            ix.sort_by(|&a, &b| entries[a as usize].0.name.cmp(&entries[b as usize].0.name));
            ix.into_boxed_slice()
        } else {
            Box::default()
        };
        Map(Box::new(Entries { entries, by_name }))
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = &'a (Key, Node);
    type IntoIter = std::slice::Iter<'a, (Key, Node)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.entries.iter()
    }
}

impl std::ops::Deref for Map {
    type Target = [(Key, Node)];
    fn deref(&self) -> &[(Key, Node)] {
        &self.0.entries
    }
}

/// A positioned YAML value. `span` is the value itself (for a block mapping
/// or sequence, its first character); `key` is the key it is stored under.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    pub key: Option<Span>,
}

impl Node {
    /// The best span to point at for this node: the scalar itself, or for a
    /// collection the key that introduces it (`ha:`), so a finding about a
    /// whole block lands on the line a reader looks for.
    pub fn label(&self) -> Span {
        match (&self.value, self.key) {
            (Value::Map(_) | Value::Seq(_), Some(k)) => k,
            _ => self.span,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(map) => map.find(key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The key entry of a mapping (for spans of the key itself).
    pub fn entry(&self, key: &str) -> Option<(&Key, &Node)> {
        match &self.value {
            Value::Map(map) => map.find(key).map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    /// Resolves an RFC 6901 JSON pointer (`/spec/pools/0/instances`).
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for raw in pointer.strip_prefix('/')?.split('/') {
            // Most segments hold no escape: unescape without allocating then.
            let token: std::borrow::Cow<str> = if raw.contains('~') {
                raw.replace("~1", "/").replace("~0", "~").into()
            } else {
                raw.into()
            };
            node = match &node.value {
                Value::Map(_) => node.get(&token)?,
                Value::Seq(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The node at `pointer`, mutably (the loader blanks invalid values).
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Node> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for raw in pointer.strip_prefix('/')?.split('/') {
            let token: std::borrow::Cow<str> = if raw.contains('~') {
                raw.replace("~1", "/").replace("~0", "~").into()
            } else {
                raw.into()
            };
            node = match &mut node.value {
                Value::Map(map) => map.find_mut(&token)?,
                Value::Seq(items) => items.get_mut(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            Value::Int(i) => Some(i as f64),
            Value::BigInt(ref s) => s.parse().ok(),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }
    pub fn as_seq(&self) -> &[Node] {
        match &self.value {
            Value::Seq(items) => items,
            _ => &[],
        }
    }
    pub fn entries(&self) -> &[(Key, Node)] {
        match &self.value {
            Value::Map(entries) => entries,
            _ => &[],
        }
    }
    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The scalar as written, for messages (`30d`, `true`, `12`).
    pub fn scalar_text(&self) -> Option<String> {
        Some(match &self.value {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::BigInt(s) => s.clone(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) => s.clone(),
            _ => return None,
        })
    }

    /// A short name of the node's type for messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::BigInt(_) => "integer",
            Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::Seq(_) => "sequence",
            Value::Map(_) => "mapping",
        }
    }

    /// The JSON view used for schema validation.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::BigInt(s) => s
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or(J::Null, J::Number),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => J::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.name.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }
}
