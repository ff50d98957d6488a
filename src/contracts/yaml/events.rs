//! The positioned tree built straight from granit-parser's events: no serde
//! layer, no `Spanned` wrappers, no per-key duplicate fingerprints.
//!
//! This is the path every well-formed contract takes. It understands the
//! YAML the contracts are written in (block and flow collections, every
//! scalar style, the core-schema scalars) and gives up — returns `None` —
//! on anything it does not resolve exactly as serde-saphyr does: a parse
//! error, a duplicate key, anchors and aliases, tags, merge keys, complex
//! keys, unusual number spellings, and inputs near serde-saphyr's budgets.
//! The caller then reads the file with serde-saphyr (`read.rs`), so every
//! error keeps its message and position, and every value its type. The
//! test `fast_path_agrees_with_serde_saphyr` holds the two readers equal on
//! every YAML file of the repository.
use super::node::{Key, Map, Node, Value};
use crate::source::Span;
use granit_parser::{Event, Parser, ScalarStyle};

// Below serde-saphyr's default budget (`Budget::default()`: 64 levels,
// 1,024 documents, 250,000 nodes, 1,000,000 events, 64 MiB of scalars), so
// an input that would breach one is always read by serde-saphyr, which
// reports the breach.
const MAX_DEPTH: usize = 48;
const MAX_DOCUMENTS: usize = 1_000;
const MAX_NODES: usize = 200_000;
const MAX_SCALAR_BYTES: usize = 48 << 20;

/// A collection being built.
struct Frame {
    span: Span,
    items: Items,
}

enum Items {
    Seq(Vec<Node>),
    /// Entries so far and the key waiting for its value.
    Map(Vec<(Key, Node)>, Option<Key>),
}

/// Every non-empty document, or `None` when serde-saphyr must decide.
pub(super) fn parse(text: &str) -> Option<Vec<Node>> {
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let (mut documents, mut nodes, mut scalar_bytes) = (0usize, 0usize, 0usize);
    for item in Parser::new_from_str(text) {
        let (event, span) = item.ok()?;
        let span = span_of(text, &span)?;
        match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > MAX_DOCUMENTS {
                    return None;
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 || tag.is_some() {
                    return None;
                }
                nodes += 1;
                scalar_bytes += value.len();
                if nodes > MAX_NODES || scalar_bytes > MAX_SCALAR_BYTES {
                    return None;
                }
                // A scalar where a key is expected is the key.
                if let Some(Frame {
                    items: Items::Map(_, pending @ None),
                    ..
                }) = stack.last_mut()
                {
                    *pending = Some(Key {
                        name: key_name(&value, style)?,
                        span,
                    });
                    continue;
                }
                let value = if style == ScalarStyle::Plain {
                    plain(&value)?
                } else {
                    Value::Str(value.into_owned())
                };
                let node = Node {
                    value,
                    span,
                    key: None,
                };
                add(&mut stack, &mut docs, node)?;
            }
            Event::SequenceStart(_, anchor, ref tag) | Event::MappingStart(_, anchor, ref tag) => {
                if anchor != 0 || tag.is_some() {
                    return None;
                }
                nodes += 1;
                if nodes > MAX_NODES || stack.len() >= MAX_DEPTH {
                    return None;
                }
                // A collection as a key.
                if matches!(
                    stack.last(),
                    Some(Frame {
                        items: Items::Map(_, None),
                        ..
                    })
                ) {
                    return None;
                }
                let items = if matches!(event, Event::SequenceStart(..)) {
                    Items::Seq(Vec::new())
                } else {
                    Items::Map(Vec::new(), None)
                };
                stack.push(Frame { span, items });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let frame = stack.pop()?;
                let value = match frame.items {
                    Items::Seq(mut items) => {
                        items.shrink_to_fit();
                        Value::Seq(items)
                    }
                    Items::Map(entries, None) => Value::Map(Map::new(entries)?),
                    Items::Map(_, Some(_)) => return None,
                };
                let node = Node {
                    value,
                    span: frame.span,
                    key: None,
                };
                add(&mut stack, &mut docs, node)?;
            }
            // Aliases, anchors, comments: serde-saphyr's.
            _ => return None,
        }
    }
    stack.is_empty().then_some(docs)
}

/// The byte span of an event, as serde-saphyr's `Location` gives it.
fn span_of(text: &str, span: &granit_parser::Span) -> Option<Span> {
    let start = span.start.byte_offset()?;
    let end = span.end.byte_offset()?.max(start);
    (start <= text.len()).then(|| Span::new(start, end.min(text.len())))
}

/// Puts a finished node where it belongs: the open collection, or the
/// document list (a null document is an empty one).
fn add(stack: &mut [Frame], docs: &mut Vec<Node>, mut node: Node) -> Option<()> {
    match stack.last_mut() {
        None if node.is_null() => {}
        None => docs.push(node),
        Some(Frame {
            items: Items::Seq(items),
            ..
        }) => items.push(node),
        Some(Frame {
            items: Items::Map(entries, pending),
            ..
        }) => {
            let key = pending.take()?;
            node.key = Some(key.span);
            entries.push((key, node));
        }
    }
    Some(())
}

/// A mapping key's text as serde-saphyr hands it to a string-keyed map.
fn key_name(value: &str, style: ScalarStyle) -> Option<String> {
    if style != ScalarStyle::Plain {
        return Some(value.to_string());
    }
    // `<<` is a merge key.
    if value == "<<" {
        return None;
    }
    match plain(value)? {
        Value::Str(s) => Some(s),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => Some("null".into()),
        _ => None,
    }
}

/// An untagged plain scalar under the YAML 1.2 core schema with strict
/// booleans, or `None` for a spelling left to serde-saphyr (radix prefixes,
/// underscores, leading zeros, exponents, `.5`, `.inf`, `nan`, integers
/// past u64).
fn plain(text: &str) -> Option<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    let negative = text.starts_with('-');
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let b = unsigned.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_digit() => {}
        Some(b'.') => return None,
        // Rust's float parser (serde-saphyr's fallback) reads these words.
        _ if ["inf", "infinity", "nan"]
            .iter()
            .any(|w| unsigned.eq_ignore_ascii_case(w)) =>
        {
            return None;
        }
        _ => return Some(Value::Str(text.to_string())),
    }
    if b.iter().all(u8::is_ascii_digit) {
        if b.len() > 1 && b[0] == b'0' {
            return None;
        }
        return if negative {
            text.parse::<i64>().ok().map(Value::Int)
        } else {
            let v = unsigned.parse::<u64>().ok()?;
            Some(i64::try_from(v).map_or_else(|_| Value::BigInt(v.to_string()), Value::Int))
        };
    }
    if b.len() > 1 && b[0] == b'0' && b"xXoObB".contains(&b[1]) {
        return None;
    }
    // digits.digits
    if let Some((int, frac)) = unsigned.split_once('.')
        && !frac.is_empty()
        && int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit())
    {
        let f = text.parse::<f64>().ok().filter(|f| f.is_finite())?;
        return Some(Value::Float(f));
    }
    // Any other number is made of these; a sign can only start the text or
    // follow an exponent. Anything else (`30d`, `2026-11-30`, `10.0.0.1`,
    // `12:30`) is a string.
    let numeric = b"0123456789._eE+-";
    let sign_inside = b
        .iter()
        .enumerate()
        .skip(1)
        .any(|(i, c)| matches!(c, b'+' | b'-') && !matches!(b[i - 1], b'e' | b'E'));
    let dots = b.iter().filter(|&&c| c == b'.').count();
    if b.iter().any(|c| !numeric.contains(c)) || sign_inside || dots > 1 {
        return Some(Value::Str(text.to_string()));
    }
    None
}
