//! A content-addressed cache of loaded YAML files, so that a one-file run
//! (a pre-commit hook) does not parse and schema-check every contract of the
//! repository again when only one of them changed.
//!
//! Correctness first:
//! - An entry is keyed by the SHA-256 of the file's text: a changed file is a
//!   different key, whatever its name, size or modification time.
//! - The whole cache is stamped with the platcheck version, the identity of
//!   the running binary (its size and modification time: a rebuild at the same
//!   version may parse differently) and the config file's text; a different
//!   stamp discards every entry.
//! - Only outcomes with no finding are stored (a clean contract file, or YAML
//!   that is not a contract): a file the loader reports on is parsed every run,
//!   so its messages always come from the code that runs.
//! - Anything unreadable (a truncated file, another format) is a miss.
//!
//! It lives in `.platcheck_cache/` beside the config (inside the repository,
//! with a `.gitignore` of `*` so neither git nor platcheck's own walk sees
//! it), is never written through a link, and `PLATCHECK_NO_CACHE=1` turns it
//! off.
use super::yaml::{Key, Node, Value};
use super::{Contract, Kind};
use crate::source::Span;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &[u8] = b"platcheck contracts cache 1\n";
pub const DIR: &str = ".platcheck_cache";
const FILE: &str = "contracts.bin";
/// A cache file larger than this is not read (a miss): the run must stay
/// bounded whatever sits in the directory.
const MAX_BYTES: u64 = 512 << 20;

type Hash = [u8; 32];

/// What the loader made of one YAML text: `None` for YAML that is not ours.
pub type Entry = Option<Vec<Contract>>;

pub struct Cache {
    dir: PathBuf,
    stamp: Hash,
    data: Vec<u8>,
    /// Byte range in `data` of each stored entry.
    old: HashMap<Hash, (usize, usize)>,
    /// Keys this run looked up and found, and entries it computed.
    used: Mutex<Vec<Hash>>,
    new: Mutex<Vec<(Hash, Vec<u8>)>>,
}

/// Whether the environment turns the cache off (`PLATCHECK_NO_CACHE` set to
/// anything but empty or `0`).
fn disabled() -> bool {
    std::env::var_os("PLATCHECK_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0")
}

impl Cache {
    /// The cache of the repository whose config is at `root` (absolute, or
    /// relative to the process's working directory). `None` when turned off
    /// or when the binary cannot be identified.
    pub fn open(root: &Path, config_text: &str) -> Option<Cache> {
        if disabled() {
            return None;
        }
        let exe = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
        let mtime = exe
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        h.update(exe.len().to_le_bytes());
        h.update(mtime.as_nanos().to_le_bytes());
        h.update(config_text.as_bytes());
        let stamp: Hash = h.finalize().into();
        let dir = root.join(DIR);
        let mut cache = Cache {
            dir,
            stamp,
            data: Vec::new(),
            old: HashMap::new(),
            used: Mutex::new(Vec::new()),
            new: Mutex::new(Vec::new()),
        };
        // Never through a link: it could lead out of the repository.
        let is_link =
            |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
        if is_link(&cache.dir) || is_link(&cache.dir.join(FILE)) {
            return None;
        }
        // Bounded, regular files only: a FIFO or a huge file there is a miss, not a hang.
        if let Some(data) = read_bounded(&cache.dir.join(FILE)) {
            cache.data = data;
            cache.old = index(&cache.data, &cache.stamp).unwrap_or_default();
        }
        Some(cache)
    }

    /// The cached loader outcome of `text`, or `load`'s, stored when `load`
    /// reported nothing (`clean`).
    pub fn get_or_load(&self, text: &str, load: impl FnOnce() -> (Entry, bool)) -> Entry {
        let key: Hash = Sha256::digest(text.as_bytes()).into();
        if let Some(&(start, end)) = self.old.get(&key)
            && let Some(entry) = decode_entry(&self.data[start..end])
        {
            lock(&self.used).push(key);
            return entry;
        }
        let (entry, clean) = load();
        if clean {
            let mut bytes = Vec::new();
            encode_entry(&entry, &mut bytes);
            lock(&self.new).push((key, bytes));
        }
        entry
    }

    /// Writes the entries this run used or made (so the file does not grow
    /// with every version of every file), when anything changed. Failure to
    /// write (a read-only checkout) only costs the next run its speed.
    pub fn save(self) {
        let used = self.used.into_inner().unwrap_or_else(|e| e.into_inner());
        let new = self.new.into_inner().unwrap_or_else(|e| e.into_inner());
        if new.is_empty() && used.len() == self.old.len() {
            return;
        }
        let mut out = Vec::with_capacity(self.data.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.stamp);
        let mut seen = std::collections::HashSet::new();
        let mut write = |key: &Hash, bytes: &[u8], out: &mut Vec<u8>| {
            if seen.insert(*key) {
                out.extend_from_slice(key);
                out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
                out.extend_from_slice(bytes);
            }
        };
        for key in &used {
            let (start, end) = self.old[key];
            write(key, &self.data[start..end], &mut out);
        }
        for (key, bytes) in &new {
            write(key, bytes, &mut out);
        }
        let _ = write_atomically(&self.dir, &out);
    }
}

/// The cache file's bytes, if it is a regular file of at most `MAX_BYTES`
/// (opened non-blocking, so a FIFO swapped in after the check cannot hang).
fn read_bounded(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = opts.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut data = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut data).ok()?;
    (data.len() as u64 <= MAX_BYTES).then_some(data)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn write_atomically(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if !dir.exists() {
        std::fs::create_dir(dir)?;
        std::fs::write(dir.join(".gitignore"), "# written by platcheck\n*\n")?;
        std::fs::write(
            dir.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55\n# platcheck's cache of parsed contracts; safe to delete.\n",
        )?;
    }
    let tmp = dir.join(format!("{FILE}.{}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes));
    match written.and_then(|()| std::fs::rename(&tmp, dir.join(FILE))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The entries of a cache file with this stamp (`None`: not one, or another stamp).
fn index(data: &[u8], stamp: &Hash) -> Option<HashMap<Hash, (usize, usize)>> {
    let rest = data.strip_prefix(MAGIC)?;
    let rest = rest.strip_prefix(stamp.as_slice())?;
    let mut at = data.len() - rest.len();
    let mut out = HashMap::new();
    while at < data.len() {
        let key: Hash = data.get(at..at + 32)?.try_into().ok()?;
        let len = u64::from_le_bytes(data.get(at + 32..at + 40)?.try_into().ok()?);
        let start = at + 40;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        if end > data.len() {
            return None;
        }
        out.insert(key, (start, end));
        at = end;
    }
    Some(out)
}

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
mod tests {
    use super::*;
    use crate::emit::Sink;
    use crate::source::SourceFile;

    fn load(text: &str) -> Entry {
        let src = SourceFile::new("t.yaml", "t.yaml", text);
        super::super::load::load_file(0, &src, &mut Sink::default())
    }

    fn same(a: &Entry, b: &Entry) -> bool {
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
            include_str!("../../examples/clean/contracts/clusters/orders-db.yaml"),
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
        }
    }

    #[test]
    fn stored_only_when_clean_and_read_back_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let text = include_str!("../../examples/clean/contracts/clusters/orders-db.yaml");
        let cache = Cache::open(dir.path(), "version: 1\n").unwrap();
        let first = cache.get_or_load(text, || (load(text), true));
        cache.get_or_load("a: [", || (Some(Vec::new()), false));
        cache.save();
        let gitignore = std::fs::read_to_string(dir.path().join(DIR).join(".gitignore")).unwrap();
        assert!(gitignore.contains('*'));

        let cache = Cache::open(dir.path(), "version: 1\n").unwrap();
        assert_eq!(cache.old.len(), 1, "the file with findings is not stored");
        let again = cache.get_or_load(text, || panic!("must come from the cache"));
        assert!(same(&first, &again));
        // A changed text is a miss.
        let mut loaded = false;
        cache.get_or_load(&format!("{text}\n"), || {
            loaded = true;
            (None, true)
        });
        assert!(loaded);

        // Another config discards everything.
        let other = Cache::open(dir.path(), "version: 1\nfail_on: warning\n").unwrap();
        assert!(other.old.is_empty());
    }

    #[test]
    fn a_corrupt_file_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(DIR)).unwrap();
        std::fs::write(
            dir.path().join(DIR).join(FILE),
            b"platcheck contracts cache 1\nxx",
        )
        .unwrap();
        let cache = Cache::open(dir.path(), "").unwrap();
        assert!(cache.old.is_empty());
    }
}
