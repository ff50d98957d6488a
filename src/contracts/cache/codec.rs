//! One cache entry (the loader's outcome for one YAML text) as bytes:
//! varint lengths, the positioned tree node by node. Decoding refuses
//! anything truncated or malformed (a miss), never misreads it.
//!
//! Per contract: its kind and name, its outline (the nodes at
//! `contracts::OUTLINE`), then its tree, each tree with its length in
//! front. Reading an entry only frames the trees; each is decoded when a
//! rule first reads it (`contracts::tree`), and one that does not decode
//! then is rebuilt from the stored text by the loader.
use super::super::tree::{Encoded, Tree};
use super::super::yaml::{Key, Node, Value};
use super::super::{Contract, Kind, OUTLINE};
use super::Entry;
use crate::source::{Span, Text};
use std::sync::Arc;

fn put_uint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_uint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn put_int(out: &mut Vec<u8>, v: i64) {
    put_uint(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// A span as its start relative to `base` (the parent's start: one or two
/// bytes instead of the absolute offset) and its length, both signed so
/// that any span round-trips.
fn put_span(out: &mut Vec<u8>, s: Span, base: usize) {
    put_int(out, s.start as i64 - base as i64);
    put_int(out, s.end as i64 - s.start as i64);
}

/// The text the spans of a stored file's trees point into (the loader
/// parsed it without its BOM).
fn spanned(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn same_as_text(text: &str, span: Span, s: &str) -> bool {
    text.get(span.start..span.end) == Some(s)
}

pub(crate) fn encode_entry(entry: &Entry, text: &str, out: &mut Vec<u8>) {
    let text = spanned(text);
    let Some(contracts) = entry else {
        out.push(0);
        return;
    };
    out.push(1);
    put_uint(out, contracts.len() as u64);
    for c in contracts {
        out.push(match c.kind {
            Kind::Cluster => 0,
            Kind::EventBoundary => 1,
        });
        put_str(out, &c.name);
        for p in OUTLINE {
            match c.get(p) {
                None => out.push(0),
                Some(n) => {
                    out.push(1);
                    put_tree(out, n, text);
                }
            }
        }
        put_tree(out, &c.root, text);
    }
}

fn put_tree(out: &mut Vec<u8>, n: &Node, text: &str) {
    let mut tree = Vec::new();
    encode_node(n, 0, text, &mut tree);
    put_uint(out, tree.len() as u64);
    out.extend_from_slice(&tree);
}

/// A scalar or key name that is exactly the text at its span (a plain
/// scalar, nearly every key) is not stored again: the text is in the record.
fn encode_node(n: &Node, base: usize, text: &str, out: &mut Vec<u8>) {
    put_span(out, n.span, base);
    let base = n.span.start;
    match n.key {
        None => out.push(0),
        Some(k) => {
            out.push(1);
            put_span(out, k, base);
        }
    }
    match &n.value {
        Value::Null => out.push(0),
        Value::Bool(b) => out.extend_from_slice(&[1, u8::from(*b)]),
        Value::Int(i) => {
            out.push(2);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Value::BigInt(s) => {
            out.push(3);
            put_str(out, s);
        }
        Value::Float(f) => {
            out.push(4);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        Value::Str(s) if same_as_text(text, n.span, s) => out.push(8),
        Value::Str(s) => {
            out.push(5);
            put_str(out, s);
        }
        Value::Seq(items) => {
            out.push(6);
            put_uint(out, items.len() as u64);
            for i in items {
                encode_node(i, base, text, out);
            }
        }
        Value::Map(entries) => {
            out.push(7);
            put_uint(out, entries.len() as u64);
            for (k, v) in entries {
                if same_as_text(text, k.span, &k.name) {
                    out.push(1);
                } else {
                    out.push(0);
                    put_str(out, &k.name);
                }
                put_span(out, k.span, base);
                encode_node(v, base, text, out);
            }
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.at)?;
        self.at += 1;
        Some(b)
    }
    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn uint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.uint()?).ok()
    }
    fn string(&mut self) -> Option<String> {
        let n = self.usize()?;
        String::from_utf8(self.bytes(n)?.to_vec()).ok()
    }
    fn int(&mut self) -> Option<i64> {
        let v = self.uint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }
    /// A span stored by `put_span` against `base`.
    fn span(&mut self, base: usize) -> Option<Span> {
        let start = i64::try_from(base).ok()?.checked_add(self.int()?)?;
        let end = start.checked_add(self.int()?)?;
        Some(Span::new(
            usize::try_from(start).ok()?,
            usize::try_from(end).ok()?,
        ))
    }
    fn word(&mut self) -> Option<[u8; 8]> {
        self.bytes(8)?.try_into().ok()
    }
    /// A count of items that each take at least one byte: a corrupt count
    /// cannot make us reserve more than the data holds.
    fn count(&mut self) -> Option<usize> {
        let n = self.usize()?;
        (n <= self.data.len() - self.at).then_some(n)
    }
}

/// A stored file: where its text is in the cache's texts (`text_at`,
/// its length), then the loader's outcome for it.
#[cfg(test)]
pub(crate) fn encode_record(text_at: usize, text: &str, entry: &Entry, out: &mut Vec<u8>) {
    put_record_head(out, text_at, text.len());
    encode_entry(entry, text, out);
}

/// A record's start: where its text is in the texts.
pub(crate) fn put_record_head(out: &mut Vec<u8>, text_at: usize, text_len: usize) {
    put_uint(out, text_at as u64);
    put_uint(out, text_len as u64);
}

/// Where a record's text is in the texts, and where its outcome starts
/// in the record.
pub(crate) fn record_text(record: &[u8]) -> Option<((usize, usize), usize)> {
    let mut r = Reader {
        data: record,
        at: 0,
    };
    let at = r.usize()?;
    let end = at.checked_add(r.usize()?)?;
    Some(((at, end), r.at))
}

/// The text and outcome of the stored file at `data[start..end]`, its
/// text a part of `texts` (shared, not copied). The contracts' trees stay
/// in `data` until read.
pub(crate) fn decode_record(
    data: &Arc<Vec<u8>>,
    start: usize,
    end: usize,
    texts: &Arc<String>,
) -> Option<(Text, Entry)> {
    let ((at, text_end), entry_at) = record_text(data.get(start..end)?)?;
    let text = Text::part(texts, at, text_end)?;
    let entry = decode_entry(data, (start + entry_at, end), &text)?;
    Some((text, entry))
}

/// The outcome stored at `data[range]`, for `text`.
fn decode_entry(data: &Arc<Vec<u8>>, (start, end): (usize, usize), text: &Text) -> Option<Entry> {
    let mut r = Reader {
        data: data.get(start..end)?,
        at: 0,
    };
    let entry = match r.byte()? {
        0 => None,
        1 => {
            let n = r.count()?;
            let mut contracts = Vec::with_capacity(n);
            for contract in 0..n {
                let kind = match r.byte()? {
                    0 => Kind::Cluster,
                    1 => Kind::EventBoundary,
                    _ => return None,
                };
                let name = r.string()?;
                let tree = |r: &mut Reader, pointer: &'static str| -> Option<Tree> {
                    let len = r.usize()?;
                    let at = start + r.at;
                    r.bytes(len)?;
                    Some(Tree::encoded(Encoded {
                        data: Arc::clone(data),
                        range: (at, at + len),
                        text: text.clone(),
                        contract,
                        pointer,
                        decode: decode_tree,
                    }))
                };
                let mut outline = Vec::with_capacity(OUTLINE.len());
                for p in OUTLINE {
                    outline.push(match r.byte()? {
                        0 => None,
                        1 => Some(tree(&mut r, p)?),
                        _ => return None,
                    });
                }
                contracts.push(Contract {
                    file: 0,
                    kind,
                    name,
                    root: tree(&mut r, "")?,
                    outline: Some(outline.into()),
                });
            }
            Some(contracts)
        }
        _ => return None,
    };
    (r.at == end - start).then_some(entry)
}

/// An encoded tree; one whose bytes do not decode (a damaged cache file)
/// is rebuilt by the loader from the stored text (the entry's key is that
/// text's hash, and only clean outcomes are stored, so the loader gives
/// the same tree).
fn decode_tree(e: &Encoded) -> Node {
    let data = &e.data[e.range.0..e.range.1];
    let mut r = Reader { data, at: 0 };
    if let Some(node) = decode_node(&mut r, 0, 0, spanned(&e.text))
        && r.at == data.len()
    {
        return node;
    }
    let src = crate::source::SourceFile::new("", "", &e.text);
    let loaded = crate::contracts::load::load_file(0, &src, &mut crate::emit::Sink::default());
    loaded
        .into_iter()
        .flatten()
        .nth(e.contract)
        .and_then(|c| c.root.pointer(e.pointer).cloned())
        .unwrap_or_else(|| {
            // Neither the bytes nor the text they were stored with give the
            // tree: nothing is left to read it from (isolated as PC000).
            panic!(
                "the contract cache ({}/{}) is damaged: delete it",
                super::DIR,
                super::FILE
            )
        })
}

fn decode_node(r: &mut Reader, depth: usize, base: usize, text: &str) -> Option<Node> {
    // The YAML reader's own nesting budget is far below this.
    if depth > 1024 {
        return None;
    }
    let span = r.span(base)?;
    let base = span.start;
    let from_text = |s: Span| text.get(s.start..s.end).map(str::to_string);
    let key = match r.byte()? {
        0 => None,
        1 => Some(r.span(base)?),
        _ => return None,
    };
    let value = match r.byte()? {
        0 => Value::Null,
        1 => Value::Bool(r.byte()? != 0),
        2 => Value::Int(i64::from_le_bytes(r.word()?)),
        3 => Value::BigInt(r.string()?),
        4 => Value::Float(f64::from_bits(u64::from_le_bytes(r.word()?))),
        5 => Value::Str(r.string()?),
        8 => Value::Str(from_text(span)?),
        6 => {
            let n = r.count()?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(decode_node(r, depth + 1, base, text)?);
            }
            Value::Seq(items)
        }
        7 => {
            let n = r.count()?;
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                let name = match r.byte()? {
                    0 => Some(r.string()?),
                    1 => None,
                    _ => return None,
                };
                let span = r.span(base)?;
                let name = match name {
                    Some(n) => n,
                    None => from_text(span)?,
                };
                entries.push((Key { name, span }, decode_node(r, depth + 1, base, text)?));
            }
            Value::Map(entries.into())
        }
        _ => return None,
    };
    Some(Node { value, span, key })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::emit::Sink;
    use crate::source::SourceFile;

    pub(in crate::contracts::cache) fn load(text: &str) -> Entry {
        let src = SourceFile::new("t.yaml", "t.yaml", text);
        crate::contracts::load::load_file(0, &src, &mut Sink::default())
    }

    /// Whether no tree of `e` has been built yet.
    fn lazy(e: &Entry) -> bool {
        e.iter().flatten().all(|c| !c.root.is_decoded())
    }

    pub(in crate::contracts::cache) fn same(a: &Entry, b: &Entry) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| x.kind == y.kind && x.name == y.name && x.root == y.root)
            }
            _ => false,
        }
    }

    /// The cache's texts, holding only `text` after some other text.
    fn texts(text: &str) -> (Arc<String>, usize) {
        (Arc::new(format!("other{text}")), 5)
    }

    #[test]
    fn a_tree_whose_bytes_do_not_decode_is_rebuilt_from_the_stored_text() {
        let text = include_str!("../../../examples/clean/contracts/clusters/orders-db.yaml");
        let entry = load(text);
        let (all, at) = texts(text);
        let mut record = Vec::new();
        encode_record(at, text, &entry, &mut record);
        let end = record.len();
        let intact = Arc::new(record.clone());
        let (_, back) = decode_record(&intact, 0, end, &all).unwrap();
        let contracts = back.as_ref().unwrap();
        let root = contracts[0].root.range().unwrap();
        let outline = contracts[0].outline.as_ref().unwrap()[0]
            .as_ref()
            .expect("the example cluster has migrations")
            .range()
            .unwrap();
        for (a, b) in [root, outline] {
            record[a..b].fill(0xff);
        }
        let damaged = Arc::new(record);
        let (_, back) = decode_record(&damaged, 0, end, &all).expect("framing is intact");
        assert!(same(&entry, &back));
        let want = entry.as_ref().unwrap()[0].get("/spec/migrations");
        assert_eq!(back.as_ref().unwrap()[0].get("/spec/migrations"), want);
        assert!(want.is_some());
    }

    #[test]
    fn entries_round_trip_exactly() {
        let texts_ = [
            include_str!("../../../examples/clean/contracts/clusters/orders-db.yaml"),
            "a: 1\nb: [x, 2.5, -3, null, true, 99999999999999999999999]\n",
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata: {name: \"é/~x\"}\n---\nfoo: bar\n",
            // A BOM (the spans count from after it), quoted and escaped
            // scalars and keys, and an alias, whose node sits before its parent.
            "\u{feff}apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: 'o''x'\n  \"k\\u0041\": &a \"v\\tw\"\nspec: {x: *a, y: \"é\"}\n",
        ];
        for text in texts_ {
            let entry = load(text);
            let (all, at) = texts(text);
            let mut bytes = Vec::new();
            encode_entry(&entry, text, &mut bytes);
            let len = bytes.len();
            let bytes = Arc::new(bytes);
            let shared = Text::part(&all, at, all.len()).unwrap();
            let back = decode_entry(&bytes, (0, len), &shared).expect("decodes");
            assert!(lazy(&back), "{text}");
            assert!(same(&entry, &back), "{text}");
            // Every truncation is refused, never misread.
            for cut in 0..len {
                let cut_bytes = Arc::new(bytes[..cut].to_vec());
                assert!(
                    decode_entry(&cut_bytes, (0, cut), &shared).is_none(),
                    "cut at {cut}"
                );
            }
            let mut record = vec![9, 9];
            encode_record(at, text, &entry, &mut record);
            let end = record.len();
            let record = Arc::new(record);
            let (back_text, back) = decode_record(&record, 2, end, &all).expect("decodes");
            assert_eq!(&*back_text, text);
            assert!(same(&entry, &back), "{text}");
            for cut in 2..end {
                let cut_record = Arc::new(record[..cut].to_vec());
                assert!(
                    decode_record(&cut_record, 2, cut, &all).is_none(),
                    "cut at {cut}"
                );
            }
            // A text out of the texts' bounds is refused.
            let mut far = Vec::new();
            encode_record(at + 1, text, &entry, &mut far);
            let n = far.len();
            assert!(decode_record(&Arc::new(far), 0, n, &all).is_none());
        }
    }
}
