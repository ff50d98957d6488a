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
//!
//! The store is here; the on-disk file (bounded read, atomic write, the
//! entry index) is in `file`, the binary form of one entry in `codec`.
mod codec;
mod file;

use super::Contract;
use codec::{decode_entry, encode_entry};
use file::{MAGIC, index, read_bounded, write_atomically};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const DIR: &str = ".platcheck_cache";
const FILE: &str = "contracts.bin";

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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::codec::tests::{load, same};
    use super::*;

    #[test]
    fn stored_only_when_clean_and_read_back_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let text = include_str!("../../../examples/clean/contracts/clusters/orders-db.yaml");
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
