//! One cache entry (the loader's outcome for one YAML text) as bytes:
//! varint lengths, the positioned tree node by node. Decoding refuses
//! anything truncated or malformed (a miss), never misreads it.
use super::super::yaml::{Key, Node, Value};
use super::super::{Contract, Kind};
use super::Entry;
use crate::source::Span;

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

fn put_span(out: &mut Vec<u8>, s: Span) {
    put_uint(out, s.start as u64);
    put_uint(out, s.end as u64);
}

pub(crate) fn encode_entry(entry: &Entry, out: &mut Vec<u8>) {
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
        encode_node(&c.root, out);
    }
}

fn encode_node(n: &Node, out: &mut Vec<u8>) {
    put_span(out, n.span);
    match n.key {
        None => out.push(0),
        Some(k) => {
            out.push(1);
            put_span(out, k);
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
        Value::Str(s) => {
            out.push(5);
            put_str(out, s);
        }
        Value::Seq(items) => {
            out.push(6);
            put_uint(out, items.len() as u64);
            for i in items {
                encode_node(i, out);
            }
        }
        Value::Map(entries) => {
            out.push(7);
            put_uint(out, entries.len() as u64);
            for (k, v) in entries {
                put_str(out, &k.name);
                put_span(out, k.span);
                encode_node(v, out);
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
    fn span(&mut self) -> Option<Span> {
        Some(Span::new(self.usize()?, self.usize()?))
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

/// A stored file: its decoded text (what a stat hit gives the workspace
/// without reading the file), then the loader's outcome.
pub(crate) fn encode_record(text: &str, entry: &Entry, out: &mut Vec<u8>) {
    put_str(out, text);
    encode_entry(entry, out);
}

/// The text and outcome of a stored file; with `text: false` the text is
/// skipped unchecked (a hit by content already has it).
pub(crate) fn decode_record(data: &[u8], text: bool) -> Option<(Option<&str>, Entry)> {
    let mut r = Reader { data, at: 0 };
    let n = r.usize()?;
    let begin = r.at;
    r.bytes(n)?;
    let bytes = &data[begin..r.at];
    let text = if text {
        Some(std::str::from_utf8(bytes).ok()?)
    } else {
        None
    };
    Some((text, decode_entry(&data[r.at..])?))
}

pub(crate) fn decode_entry(data: &[u8]) -> Option<Entry> {
    let mut r = Reader { data, at: 0 };
    let entry = match r.byte()? {
        0 => None,
        1 => {
            let n = r.count()?;
            let mut contracts = Vec::with_capacity(n);
            for _ in 0..n {
                let kind = match r.byte()? {
                    0 => Kind::Cluster,
                    1 => Kind::EventBoundary,
                    _ => return None,
                };
                let name = r.string()?;
                let root = decode_node(&mut r, 0)?;
                contracts.push(Contract {
                    file: 0,
                    kind,
                    name,
                    root,
                });
            }
            Some(contracts)
        }
        _ => return None,
    };
    (r.at == data.len()).then_some(entry)
}

fn decode_node(r: &mut Reader, depth: usize) -> Option<Node> {
    // The YAML reader's own nesting budget is far below this.
    if depth > 1024 {
        return None;
    }
    let span = r.span()?;
    let key = match r.byte()? {
        0 => None,
        1 => Some(r.span()?),
        _ => return None,
    };
    let value = match r.byte()? {
        0 => Value::Null,
        1 => Value::Bool(r.byte()? != 0),
        2 => Value::Int(i64::from_le_bytes(r.word()?)),
        3 => Value::BigInt(r.string()?),
        4 => Value::Float(f64::from_bits(u64::from_le_bytes(r.word()?))),
        5 => Value::Str(r.string()?),
        6 => {
            let n = r.count()?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(decode_node(r, depth + 1)?);
            }
            Value::Seq(items)
        }
        7 => {
            let n = r.count()?;
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                let name = r.string()?;
                let span = r.span()?;
                entries.push((Key { name, span }, decode_node(r, depth + 1)?));
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

    #[test]
    fn entries_round_trip_exactly() {
        let texts = [
            include_str!("../../../examples/clean/contracts/clusters/orders-db.yaml"),
            "a: 1\nb: [x, 2.5, -3, null, true, 99999999999999999999999]\n",
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata: {name: \"é/~x\"}\n---\nfoo: bar\n",
        ];
        for text in texts {
            let entry = load(text);
            let mut bytes = Vec::new();
            encode_entry(&entry, &mut bytes);
            let back = decode_entry(&bytes).expect("decodes");
            assert!(same(&entry, &back), "{text}");
            // Every truncation is refused, never misread.
            for cut in 0..bytes.len() {
                assert!(decode_entry(&bytes[..cut]).is_none(), "cut at {cut}");
            }
            let mut record = Vec::new();
            encode_record(text, &entry, &mut record);
            let (back_text, back) = decode_record(&record, true).expect("decodes");
            assert_eq!(back_text, Some(text));
            assert!(same(&entry, &back), "{text}");
            for cut in 0..record.len() {
                assert!(
                    decode_record(&record[..cut], true).is_none(),
                    "cut at {cut}"
                );
            }
        }
    }
}
