//! The cache's file on disk: read only when it is a bounded regular file,
//! written atomically (a run killed halfway leaves the old file), and
//! indexed by entry key without decoding any entry.
use super::{FILE, Hash};
use std::collections::HashMap;
use std::path::Path;

pub(super) const MAGIC: &[u8] = b"platcheck contracts cache 1\n";
/// A cache file larger than this is not read (a miss): the run must stay
/// bounded whatever sits in the directory.
const MAX_BYTES: u64 = 512 << 20;

/// The cache file's bytes, if it is a regular file of at most `MAX_BYTES`
/// (opened non-blocking, so a FIFO swapped in after the check cannot hang).
pub(super) fn read_bounded(path: &Path) -> Option<Vec<u8>> {
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

/// The entries of a cache file with this stamp (`None`: not one, or another stamp).
pub(super) fn index(data: &[u8], stamp: &Hash) -> Option<HashMap<Hash, (usize, usize)>> {
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
