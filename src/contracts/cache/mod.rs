//! A content-addressed cache of loaded YAML files, so that a one-file run
//! (a pre-commit hook) does not parse and schema-check every contract of the
//! repository again when only one of them changed.
//!
//! Correctness first:
//! - An entry is keyed by the SHA-256 of the file's text: a changed file is a
//!   different key, whatever its name, size or modification time.
//! - A file that is not named on the command line is first looked up by its
//!   stat (path, device, inode, size, mtime, ctime; `stat` says why that is
//!   enough and what risk remains): an unchanged stat gives the stored text
//!   and outcome without reading or hashing the file. Any other stat is a
//!   read, a hash and a lookup by content, as above.
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
//! off. It is one file, read once per run.
//!
//! The store is here; the on-disk file (bounded read, atomic write, the
//! record index) is in `file`, the binary form of one entry in `codec`.
mod codec;
mod file;
mod stat;

use super::Contract;
use codec::{decode_record, encode_entry, record_text};
use file::{Index, index, put_entry, put_head, put_stat, read_parts, write_atomically};
use sha2::{Digest, Sha256};
pub use stat::Stat;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

pub const DIR: &str = ".platcheck_cache";
const FILE: &str = "contracts.bin";

type Hash = [u8; 32];
/// What the loader made of one YAML text: `None` for YAML that is not ours.
pub type Entry = Option<Vec<Contract>>;

pub struct Cache {
    dir: PathBuf,
    stamp: Hash,
    /// When the run began: a file changed just before is not trusted by stat.
    start: SystemTime,
    /// The file's records as read, shared with the contracts whose trees
    /// are still encoded in them, and its texts, shared with the sources.
    data: std::sync::Arc<Vec<u8>>,
    texts: std::sync::Arc<String>,
    old: Index,
    /// Keys this run looked up and found, and entries it computed.
    used: Mutex<Vec<Hash>>,
    /// Per entry computed: its key, text and encoded outcome.
    new: Mutex<Vec<(Hash, String, Vec<u8>)>>,
    /// The stats to keep (path, stat, content key), and whether any of
    /// them is not in the file as it was read.
    stats: Mutex<Vec<(PathBuf, Stat, Hash)>>,
    stats_changed: std::sync::atomic::AtomicBool,
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
        let start = SystemTime::now();
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
            start,
            data: Default::default(),
            texts: Default::default(),
            old: Index::default(),
            used: Mutex::new(Vec::new()),
            new: Mutex::new(Vec::new()),
            stats: Mutex::new(Vec::new()),
            stats_changed: false.into(),
        };
        // Never through a link: it could lead out of the repository.
        let is_link =
            |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
        if is_link(&cache.dir) || is_link(&cache.dir.join(FILE)) {
            return None;
        }
        // Bounded, regular files only: a FIFO or a huge file there is a miss, not a hang.
        if let Some((texts, data)) = read_parts(&cache.dir.join(FILE), &cache.stamp)
            && let Some(old) = index(&data)
        {
            cache.old = old;
            cache.data = std::sync::Arc::new(data);
            cache.texts = std::sync::Arc::new(texts);
        }
        Some(cache)
    }

    /// The stored text and outcome of the file at `path` (absolute) when
    /// its stat is the one recorded with them.
    pub fn by_stat(&self, path: &Path, stat: Stat) -> Option<(crate::source::Text, Entry)> {
        let &(recorded, key) = self.old.stats.get(path)?;
        if recorded != stat {
            return None;
        }
        let &(start, end) = self.old.entries.get(&key)?;
        let (text, entry) = decode_record(&self.data, start, end, &self.texts)?;
        lock(&self.used).push(key);
        lock(&self.stats).push((path.to_path_buf(), stat, key));
        Some((text, entry))
    }

    /// The cached loader outcome of `text`, or `load`'s, stored when `load`
    /// reported nothing (`clean`). `at` is where the text was read from and
    /// its stat taken before the read, recorded for `by_stat` next run when
    /// the file had settled.
    pub fn get_or_load(
        &self,
        text: &str,
        at: Option<(&Path, Stat)>,
        load: impl FnOnce() -> (Entry, bool),
    ) -> Entry {
        let key: Hash = Sha256::digest(text.as_bytes()).into();
        let remember = |key: Hash| {
            if let Some((path, stat)) = at
                && stat.settled(self.start)
            {
                if self.old.stats.get(path) != Some(&(stat, key)) {
                    self.stats_changed
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
                lock(&self.stats).push((path.to_path_buf(), stat, key));
            }
        };
        if let Some(&(start, end)) = self.old.entries.get(&key)
            && let Some((_, entry)) = decode_record(&self.data, start, end, &self.texts)
        {
            lock(&self.used).push(key);
            remember(key);
            return entry;
        }
        let (entry, clean) = load();
        if clean {
            let mut bytes = Vec::new();
            encode_entry(&entry, text, &mut bytes);
            lock(&self.new).push((key, text.to_string(), bytes));
            remember(key);
        }
        entry
    }

    /// Writes the entries and stats this run used or made (so the file does
    /// not grow with every version of every file), when anything changed.
    /// Failure to write (a read-only checkout) only costs the next run its
    /// speed.
    pub fn save(self) {
        let used = self.used.into_inner().unwrap_or_else(|e| e.into_inner());
        let new = self.new.into_inner().unwrap_or_else(|e| e.into_inner());
        let stats = self.stats.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut seen = std::collections::HashSet::new();
        let kept = used.iter().filter(|k| seen.insert(**k)).count();
        let stats_changed = self.stats_changed.into_inner() || stats.len() != self.old.stats.len();
        if new.is_empty() && kept == self.old.entries.len() && !stats_changed {
            return;
        }
        // Texts first (one string when read back), then the records that
        // point into them.
        let mut texts = String::new();
        let mut records = Vec::with_capacity(self.data.len() + 64);
        let mut record = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for key in &used {
            if !seen.insert(*key) {
                continue;
            }
            let (start, end) = self.old.entries[key];
            let old = &self.data[start..end];
            let Some(((a, b), entry_at)) = record_text(old) else {
                continue;
            };
            let Some(text) = self.texts.get(a..b) else {
                continue;
            };
            record.clear();
            codec::put_record_head(&mut record, texts.len(), text.len());
            record.extend_from_slice(&old[entry_at..]);
            texts.push_str(text);
            put_entry(&mut records, key, &record);
        }
        for (key, text, entry) in &new {
            if seen.insert(*key) {
                record.clear();
                codec::put_record_head(&mut record, texts.len(), text.len());
                record.extend_from_slice(entry);
                texts.push_str(text);
                put_entry(&mut records, key, &record);
            }
        }
        let mut paths = std::collections::HashSet::new();
        for (path, stat, key) in &stats {
            if seen.contains(key) && paths.insert(path) {
                put_stat(&mut records, path, stat, key);
            }
        }
        let mut out = Vec::with_capacity(texts.len() + records.len() + 128);
        put_head(&mut out, &self.stamp, &texts);
        out.extend_from_slice(&records);
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
        let first = cache.get_or_load(text, None, || (load(text), true));
        cache.get_or_load("a: [", None, || (Some(Vec::new()), false));
        cache.save();
        let gitignore = std::fs::read_to_string(dir.path().join(DIR).join(".gitignore")).unwrap();
        assert!(gitignore.contains('*'));

        let cache = Cache::open(dir.path(), "version: 1\n").unwrap();
        assert_eq!(
            cache.old.entries.len(),
            1,
            "the file with findings is not stored"
        );
        let again = cache.get_or_load(text, None, || panic!("must come from the cache"));
        assert!(same(&first, &again));
        // A changed text is a miss.
        let mut loaded = false;
        cache.get_or_load(&format!("{text}\n"), None, || {
            loaded = true;
            (None, true)
        });
        assert!(loaded);

        // Another config discards everything.
        let other = Cache::open(dir.path(), "version: 1\nfail_on: warning\n").unwrap();
        assert!(other.old.entries.is_empty());
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
        assert!(cache.old.entries.is_empty());
    }

    #[test]
    fn a_settled_stat_gives_the_text_back_and_any_other_stat_is_a_miss() {
        use super::stat::tests::stat;
        let dir = tempfile::tempdir().unwrap();
        let text = include_str!("../../../examples/clean/contracts/clusters/orders-db.yaml");
        let path = Path::new("/repo/contracts/a.yaml");
        let old = stat(7, text.len() as u64, 1_000, 1_000);
        let racy = stat(8, text.len() as u64, 1_000, i64::MAX / 4);
        let cache = Cache::open(dir.path(), "").unwrap();
        let first = cache.get_or_load(text, Some((path, old)), || (load(text), true));
        cache.get_or_load(text, Some((Path::new("/repo/b.yaml"), racy)), || {
            (load(text), true)
        });
        cache.save();

        let cache = Cache::open(dir.path(), "").unwrap();
        assert_eq!(
            cache.old.stats.len(),
            1,
            "a file changed just now is not recorded"
        );
        let (back, entry) = cache.by_stat(path, old).expect("a hit");
        assert_eq!(&*back, text);
        assert!(same(&first, &entry));
        // Another inode, size, mtime or ctime, or another path: a miss.
        for other in [
            stat(9, text.len() as u64, 1_000, 1_000),
            stat(7, text.len() as u64 + 1, 1_000, 1_000),
            stat(7, text.len() as u64, 999, 1_000),
            stat(7, text.len() as u64, 1_000, 1_001),
        ] {
            assert!(cache.by_stat(path, other).is_none(), "{other:?}");
        }
        assert!(
            cache
                .by_stat(Path::new("/repo/contracts/c.yaml"), old)
                .is_none()
        );
        cache.save();
        // A run that only hit by stat leaves the file as it was.
        let cache = Cache::open(dir.path(), "").unwrap();
        assert!(cache.by_stat(path, old).is_some());
    }
}
