//! What the file system says about a file, as the cache's first key: when a
//! file's path, device, inode, size, modification and status-change times
//! are all as recorded, its text is taken as unchanged and is neither read
//! nor hashed (SHA-256 of every contract was most of a warm one-file run).
//!
//! Why this is safe enough, and where it is not:
//! - Rewriting a file in place with the same size and an mtime set back
//!   (`touch -d`, an editor or `git checkout` restoring it) still moves the
//!   status-change time, which no ordinary call can set; replacing it
//!   (rename over it, a new checkout) gives it a new inode.
//! - A file written twice within one tick of the file system's clock keeps
//!   all of these (the "racy git" case): a file whose mtime or ctime is less
//!   than `RACY` before the run started is not recorded, so it is read and
//!   hashed again next time.
//! - Residual risk: a file system whose times are coarser than `RACY` or not
//!   kept (some network and FUSE mounts), a clock set back by more than
//!   `RACY` between two writes, or a tool that writes raw blocks under the
//!   file system. `PLATCHECK_NO_CACHE=1`, or deleting `.platcheck_cache/`,
//!   rules them out. Files named on the command line are always read.
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How recent a change may be for the stat to be trusted next run.
pub(super) const RACY: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

pub(super) const BYTES: usize = 8 * 7;

impl Stat {
    /// The stat of a regular file (`None` elsewhere, or on a platform
    /// without inode and ctime: there every file is read and hashed).
    #[cfg(unix)]
    pub fn of(meta: &std::fs::Metadata) -> Option<Stat> {
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| Stat {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }
    #[cfg(not(unix))]
    pub fn of(_meta: &std::fs::Metadata) -> Option<Stat> {
        None
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn read(path: &Path) -> Option<Stat> {
        Stat::of(&std::fs::metadata(path).ok()?)
    }

    /// Whether the file last changed at least `RACY` before `start`.
    pub(super) fn settled(&self, start: SystemTime) -> bool {
        let Ok(start) = start.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let cutoff = start.saturating_sub(RACY);
        let before = |(s, ns): (i64, i64)| {
            let (Ok(s), Ok(ns)) = (u64::try_from(s), u32::try_from(ns)) else {
                return false;
            };
            Duration::new(s, ns.min(999_999_999)) < cutoff
        };
        before(self.mtime) && before(self.ctime)
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        for v in [
            self.dev,
            self.ino,
            self.size,
            self.mtime.0 as u64,
            self.mtime.1 as u64,
            self.ctime.0 as u64,
            self.ctime.1 as u64,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    pub(super) fn decode(data: &[u8]) -> Option<Stat> {
        let w = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                data.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        Some(Stat {
            dev: w(0)?,
            ino: w(1)?,
            size: w(2)?,
            mtime: (w(3)? as i64, w(4)? as i64),
            ctime: (w(5)? as i64, w(6)? as i64),
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::contracts::cache) fn stat(ino: u64, size: u64, mtime: i64, ctime: i64) -> Stat {
        Stat {
            dev: 1,
            ino,
            size,
            mtime: (mtime, 0),
            ctime: (ctime, 0),
        }
    }

    #[test]
    fn round_trips_and_settles_only_when_old_enough() {
        let s = stat(7, 100, 1_000, 1_001);
        let mut bytes = Vec::new();
        s.encode(&mut bytes);
        assert_eq!(bytes.len(), BYTES);
        assert_eq!(Stat::decode(&bytes), Some(s));
        assert_eq!(Stat::decode(&bytes[..BYTES - 1]), None);
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        assert!(s.settled(at(1_010)));
        // A change less than RACY before the run: not trusted next time.
        assert!(!s.settled(at(1_002)));
        assert!(!stat(7, 100, 1_000, 1_009).settled(at(1_010)));
        assert!(!stat(7, 100, -5, 1_000).settled(at(1_010)));
    }

    #[cfg(unix)]
    #[test]
    fn a_real_file_changes_its_stat_when_rewritten_with_the_same_size_and_mtime() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.yaml");
        std::fs::write(&p, "a: 1\n").unwrap();
        let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let set_old = || {
            std::fs::File::options()
                .write(true)
                .open(&p)
                .unwrap()
                .set_modified(old)
                .unwrap()
        };
        set_old();
        let before = Stat::read(&p).unwrap();
        // Same size, same mtime, other content: only the ctime tells.
        // (The kernel's coarse clock ticks in milliseconds; spin until it
        // has moved, so the test does not depend on how fast it runs.)
        let mut after = before;
        while after == before {
            std::fs::write(&p, "a: 2\n").unwrap();
            set_old();
            after = Stat::read(&p).unwrap();
        }
        assert_eq!((after.size, after.mtime), (before.size, before.mtime));
        assert_ne!(after.ctime, before.ctime);
    }
}
