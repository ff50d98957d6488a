//! The cache's file on disk: read only when it is a bounded regular file,
//! written atomically (a run killed halfway leaves the old file), and
//! indexed by entry key without decoding any entry.
//!
//! Layout: `MAGIC`, the stamp, the length (u64 LE) and bytes of every
//! stored text one after the other (UTF-8 as a whole, so they are read
//! into one string that the workspace's sources share), then records,
//! each a tag byte and
//! - 0, an entry: content key (32 bytes), length (u64 LE), the record
//!   (`codec::encode_record`: where its text is in the texts, and the
//!   loader's outcome);
//! - 1, a stat: length (u64 LE), then `stat::BYTES` of stat, the content
//!   key of the file's text, and the file's absolute path.
use super::stat::{self, Stat};
use super::{FILE, Hash};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub(super) const MAGIC: &[u8] = b"platcheck contracts cache 4\n";
/// A cache file larger than this is not read (a miss): the run must stay
/// bounded whatever sits in the directory.
const MAX_BYTES: u64 = 512 << 20;

/// The texts and the records of the cache file at `path`, if it is a
/// regular file of at most `MAX_BYTES` (opened non-blocking, so a FIFO
/// swapped in after the check cannot hang) with this stamp. A file with
/// another stamp is not read past its header.
pub(super) fn read_parts(path: &Path, stamp: &Hash) -> Option<(String, Vec<u8>)> {
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
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let mut file = file.take(MAX_BYTES);
    let mut head = vec![0; MAGIC.len() + stamp.len() + 8];
    file.read_exact(&mut head).ok()?;
    let rest = head.strip_prefix(MAGIC)?.strip_prefix(stamp.as_slice())?;
    let texts_len = u64::from_le_bytes(rest.try_into().ok()?);
    let left = meta.len().checked_sub(head.len() as u64)?;
    if texts_len > left {
        return None;
    }
    // Each part sized up front: together they are tens of MB on a large
    // repository, which growing by doubling copies twice.
    let mut texts = Vec::with_capacity(usize::try_from(texts_len).ok()?);
    (&mut file).take(texts_len).read_to_end(&mut texts).ok()?;
    let texts = String::from_utf8(texts).ok()?;
    if texts.len() as u64 != texts_len {
        return None;
    }
    let mut records = Vec::with_capacity(usize::try_from(left - texts_len).ok()? + 1);
    file.read_to_end(&mut records).ok()?;
    Some((texts, records))
}

/// The start of a cache file with this stamp and these texts.
pub(super) fn put_head(out: &mut Vec<u8>, stamp: &Hash, texts: &str) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(stamp);
    out.extend_from_slice(&(texts.len() as u64).to_le_bytes());
    out.extend_from_slice(texts.as_bytes());
}

pub(super) fn write_atomically(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

/// What a cache file holds: the byte range of each entry's record, and the
/// stat and content key last seen for each path.
#[derive(Default)]
pub(super) struct Index {
    pub entries: HashMap<Hash, (usize, usize)>,
    pub stats: HashMap<PathBuf, (Stat, Hash)>,
}

pub(super) fn put_entry(out: &mut Vec<u8>, key: &Hash, record: &[u8]) {
    out.push(0);
    out.extend_from_slice(key);
    out.extend_from_slice(&(record.len() as u64).to_le_bytes());
    out.extend_from_slice(record);
}

pub(super) fn put_stat(out: &mut Vec<u8>, path: &Path, stat: &Stat, key: &Hash) {
    let path = path_bytes(path);
    out.push(1);
    out.extend_from_slice(&((stat::BYTES + 32 + path.len()) as u64).to_le_bytes());
    stat.encode(out);
    out.extend_from_slice(key);
    out.extend_from_slice(&path);
}

#[cfg(unix)]
fn path_bytes(p: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    p.as_os_str().as_bytes().to_vec()
}
#[cfg(not(unix))]
fn path_bytes(p: &Path) -> Vec<u8> {
    p.to_string_lossy().as_bytes().to_vec()
}
#[cfg(unix)]
fn bytes_path(b: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(b)))
}
#[cfg(not(unix))]
fn bytes_path(b: &[u8]) -> Option<PathBuf> {
    Some(PathBuf::from(std::str::from_utf8(b).ok()?))
}

/// The records of a cache file (`None`: malformed anywhere: then
/// nothing in it is trusted).
pub(super) fn index(data: &[u8]) -> Option<Index> {
    let mut at = 0;
    let mut out = Index::default();
    let len_at = |at: usize| -> Option<usize> {
        usize::try_from(u64::from_le_bytes(data.get(at..at + 8)?.try_into().ok()?)).ok()
    };
    while at < data.len() {
        let tag = data[at];
        at += 1;
        match tag {
            0 => {
                let key: Hash = data.get(at..at + 32)?.try_into().ok()?;
                let start = at + 40;
                let end = start.checked_add(len_at(at + 32)?)?;
                if end > data.len() {
                    return None;
                }
                out.entries.insert(key, (start, end));
                at = end;
            }
            1 => {
                let start = at + 8;
                let end = start.checked_add(len_at(at)?)?;
                let record = data.get(start..end)?;
                let stat = Stat::decode(record.get(..stat::BYTES)?)?;
                let key: Hash = record.get(stat::BYTES..stat::BYTES + 32)?.try_into().ok()?;
                let path = bytes_path(record.get(stat::BYTES + 32..)?)?;
                out.stats.insert(path, (stat, key));
                at = end;
            }
            _ => return None,
        }
    }
    Some(out)
}
