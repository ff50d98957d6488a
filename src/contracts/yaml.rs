//! YAML parsed into a tree that keeps the span of every key and value.
//!
//! serde-saphyr does the parsing (YAML 1.2 core schema with strict booleans,
//! duplicate keys as errors, budgets against alias bombs and deep nesting);
//! its `Spanned` wrapper gives us each node's location.
use crate::source::{SourceFile, Span};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};
use std::fmt;

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
    Map(Vec<(Key, Node)>),
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
            Value::Map(entries) => entries.iter().find(|(k, _)| k.name == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The key entry of a mapping (for spans of the key itself).
    pub fn entry(&self, key: &str) -> Option<(&Key, &Node)> {
        match &self.value {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.name == key)
                .map(|(k, v)| (k, v)),
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
            let token = raw.replace("~1", "/").replace("~0", "~");
            node = match &mut node.value {
                Value::Map(entries) => entries
                    .iter_mut()
                    .find(|(k, _)| k.name == token)
                    .map(|(_, v)| v)?,
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

/// A YAML error with its location.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
}

/// Parses every document of a YAML stream. Empty documents are skipped.
pub fn parse_documents(src: &SourceFile) -> Result<Vec<Node>, YamlError> {
    let options = serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
    };
    let docs: Vec<Spanned<RawValue>> = serde_saphyr::from_multiple_with_options(&src.text, options)
        .map_err(|e| {
            let span = e.location().map_or(Span::empty(0), |l| span_of(src, &l));
            YamlError {
                message: clean_message(&e.to_string()),
                span,
            }
        })?;
    Ok(docs
        .into_iter()
        .filter(|d| !matches!(d.value, RawValue::Null))
        .map(|d| convert(src, d, None))
        .collect())
}

fn clean_message(raw: &str) -> String {
    // serde-saphyr prefixes "error: line L column C: "; we print positions ourselves.
    let first = raw.lines().next().unwrap_or(raw);
    let msg = first.strip_prefix("error: ").unwrap_or(first);
    let msg = match msg.find(": ") {
        Some(i) if msg.starts_with("line ") => &msg[i + 2..],
        _ => msg,
    };
    msg.replace(", set DuplicateKeyPolicy in Options if acceptable", "")
}

fn span_of(src: &SourceFile, loc: &Location) -> Span {
    let sp = loc.span();
    match (sp.byte_offset(), sp.byte_len()) {
        (Some(off), Some(len)) if (off as usize) <= src.text.len() => {
            let start = off as usize;
            Span::new(start, (start + len as usize).min(src.text.len()))
        }
        _ => {
            let start = src.offset_of(loc.line() as usize, loc.column() as usize);
            let len = sp.len() as usize;
            let end = src.text[start..]
                .char_indices()
                .nth(len)
                .map_or(src.text.len(), |(i, _)| start + i);
            Span::new(start, end)
        }
    }
}

fn convert(src: &SourceFile, raw: Spanned<RawValue>, key: Option<Span>) -> Node {
    let span = span_of(src, &raw.referenced);
    let value = match raw.value {
        RawValue::Null => Value::Null,
        RawValue::Bool(b) => Value::Bool(b),
        RawValue::Int(i) => Value::Int(i),
        RawValue::BigInt(s) => Value::BigInt(s),
        // The YAML reader gives an integer past u128 as a float: the digits
        // as written say it is an integer literal.
        RawValue::Float(_) if is_integer_literal(&src.text[span.start..span.end]) => {
            Value::BigInt(src.text[span.start..span.end].to_string())
        }
        RawValue::Float(f) => Value::Float(f),
        RawValue::Str(s) => Value::Str(s),
        RawValue::Seq(items) => {
            Value::Seq(items.into_iter().map(|i| convert(src, i, None)).collect())
        }
        RawValue::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let kspan = span_of(src, &k.referenced);
                    let node = convert(src, v, Some(kspan));
                    (
                        Key {
                            name: k.value.0,
                            span: kspan,
                        },
                        node,
                    )
                })
                .collect(),
        ),
    };
    Node { value, span, key }
}

fn is_integer_literal(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit() || c == b'_')
}

enum RawValue {
    Null,
    Bool(bool),
    Int(i64),
    BigInt(String),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<RawValue>>),
    Map(Vec<(Spanned<KeyText>, Spanned<RawValue>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawValue;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawValue, E> {
        Ok(RawValue::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawValue, E> {
        Ok(RawValue::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawValue, E> {
        Ok(i64::try_from(v).map_or(RawValue::BigInt(v.to_string()), RawValue::Int))
    }
    fn visit_i128<E>(self, v: i128) -> Result<RawValue, E> {
        Ok(i64::try_from(v).map_or(RawValue::BigInt(v.to_string()), RawValue::Int))
    }
    fn visit_u128<E>(self, v: u128) -> Result<RawValue, E> {
        Ok(i64::try_from(v).map_or(RawValue::BigInt(v.to_string()), RawValue::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawValue, E> {
        Ok(RawValue::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawValue, E> {
        Ok(RawValue::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<RawValue, E> {
        Ok(RawValue::Str(v))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<RawValue, E> {
        Err(E::custom("binary values are not supported"))
    }
    fn visit_unit<E>(self) -> Result<RawValue, E> {
        Ok(RawValue::Null)
    }
    fn visit_none<E>(self) -> Result<RawValue, E> {
        Ok(RawValue::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawValue, D::Error> {
        d.deserialize_any(RawVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawValue, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(RawValue::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawValue, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<KeyText>>()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(RawValue::Map(entries))
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawValue, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

/// A mapping key: any scalar, kept as its text.
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a scalar mapping key")
            }
            fn visit_bool<E>(self, v: bool) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<KeyText, E> {
                Ok(KeyText("null".into()))
            }
            fn visit_none<E>(self) -> Result<KeyText, E> {
                Ok(KeyText("null".into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<KeyText, A::Error> {
                Err(de::Error::custom("a sequence cannot be a mapping key"))
            }
            fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<KeyText, A::Error> {
                Err(de::Error::custom("a mapping cannot be a mapping key"))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (SourceFile, Result<Vec<Node>, YamlError>) {
        let src = SourceFile::new("t.yaml", "t.yaml", text);
        let r = parse_documents(&src);
        (src, r)
    }

    #[test]
    fn keys_and_values_keep_positions() {
        let (src, r) = parse("a: 1\nb:\n  c: \"x\"\n  d: [NO, true]\n");
        let doc = &r.unwrap()[0];
        let c = doc.pointer("/b/c").unwrap();
        assert_eq!(c.as_str(), Some("x"));
        assert_eq!(src.line_col(c.span.start).line, 3);
        assert_eq!(src.line_col(c.span.start).column, 6);
        // Strict YAML 1.2 booleans: NO stays a string.
        assert_eq!(doc.pointer("/b/d/0").unwrap().as_str(), Some("NO"));
        assert_eq!(doc.pointer("/b/d/1").unwrap().as_bool(), Some(true));
        let b = doc.get("b").unwrap();
        assert_eq!(src.line_col(b.label().start).line, 2);
    }

    #[test]
    fn duplicate_key_is_located() {
        let (src, r) = parse("a: 1\na: 2\n");
        let e = r.unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert_eq!(src.line_col(e.span.start).line, 2);
    }

    #[test]
    fn multi_document_and_empty() {
        let (_, r) = parse("a: 1\n---\n---\nb: 2\n");
        assert_eq!(r.unwrap().len(), 2);
        let (_, r) = parse("");
        assert!(r.unwrap().is_empty());
        let (_, r) = parse("# only a comment\n");
        assert!(r.unwrap().is_empty());
    }

    #[test]
    fn crlf_positions() {
        let (src, r) = parse("a: 1\r\nb: hello\r\n");
        let b = r.unwrap()[0].get("b").unwrap().clone();
        let lc = src.line_col(b.span.start);
        assert_eq!((lc.line, lc.column), (2, 4));
        assert_eq!(&src.text[b.span.start..b.span.end], "hello");
    }
}
