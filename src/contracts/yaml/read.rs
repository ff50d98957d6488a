//! Building the positioned tree from serde-saphyr's `Spanned` values: the
//! reader of record for errors, budgets and the YAML the fast reader leaves
//! alone (anchors, tags, merge keys, unusual number spellings).
use super::node::{Key, Map, Node, Value};
use crate::source::{SourceFile, Span};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};
use std::fmt;

/// A YAML error with its location.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
}

/// Parses every document of a YAML stream with serde-saphyr. Empty
/// documents are skipped. The fast reader (`events.rs`) hands every input it
/// does not read exactly as this does to here, errors included.
pub(super) fn parse_documents(src: &SourceFile) -> Result<Vec<Node>, YamlError> {
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
        RawValue::Map(entries) => Value::Map(Map::from(
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
                .collect::<Vec<_>>(),
        )),
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
