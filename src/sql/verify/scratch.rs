//! The scratch database's identity: a unique name, and the marker every
//! scratch database (and sandbox role) carries so that one left behind by
//! a killed run (`kill -9`, a lost machine) is recognised and removed by
//! the next run — only when the process that made it is provably gone.
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Every scratch database and sandbox role starts with this.
pub const PREFIX: &str = "platcheck_verify_";

/// `platcheck_verify_<pid>_<n>`: unique per process and per replay, and
/// recognisable when someone finds one by hand.
pub fn unique_name() -> String {
    format!(
        "{PREFIX}{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// Who made a scratch object: process id and start time, on which machine
/// (host name), in which boot and in which process-id namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub pid: u32,
    pub start: u64,
    pub host: String,
    pub boot: String,
    pub pidns: String,
}

const TAG: &str = "platcheck verify scratch;";

fn read(path: &str) -> String {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// A process's start time in clock ticks since boot (Linux), 0 elsewhere.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields restart
    // after the last `)`; the start time is field 22 of the whole line.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn host_name() -> String {
    let h = read("/proc/sys/kernel/hostname");
    if !h.is_empty() {
        return h;
    }
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|b| *b == 0).unwrap_or(0);
    if ok {
        String::from_utf8_lossy(&buf[..end]).into_owned()
    } else {
        String::new()
    }
}

impl Marker {
    /// This process.
    pub fn ours() -> Marker {
        let pid = std::process::id();
        Marker {
            pid,
            start: start_time(pid).unwrap_or(0),
            host: host_name(),
            boot: read("/proc/sys/kernel/random/boot_id"),
            pidns: std::fs::read_link("/proc/self/ns/pid")
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }

    pub fn text(&self) -> String {
        format!(
            "{TAG} pid={} start={} host={} boot={} pidns={}",
            self.pid, self.start, self.host, self.boot, self.pidns
        )
    }

    pub fn parse(s: &str) -> Option<Marker> {
        let rest = s.trim().strip_prefix(TAG)?;
        let field = |k: &str| {
            rest.split_whitespace()
                .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
                .map(str::to_string)
        };
        Some(Marker {
            pid: field("pid")?.parse().ok()?,
            start: field("start")?.parse().ok()?,
            host: field("host")?,
            boot: field("boot").unwrap_or_default(),
            pidns: field("pidns").unwrap_or_default(),
        })
    }

    /// The process that made the object no longer runs. Only a marker
    /// from this machine can say so; another machine's is never judged.
    pub fn is_gone(&self) -> bool {
        let me = Marker::ours();
        if self.host != me.host || self.host.is_empty() {
            return false;
        }
        if !self.boot.is_empty() && !me.boot.is_empty() && self.boot != me.boot {
            return true;
        }
        if self.pidns != me.pidns {
            // Another container on this kernel: its pids are not ours.
            return false;
        }
        if self.pid == me.pid && self.start == me.start {
            return false;
        }
        if std::path::Path::new("/proc/self/stat").exists() {
            return match start_time(self.pid) {
                Some(t) => self.start != 0 && t != self.start,
                None => true,
            };
        }
        // No /proc: signal 0 only checks that the process exists.
        // SAFETY: kill(2) with signal 0 sends nothing.
        let r = unsafe { libc::kill(self.pid as libc::pid_t, 0) };
        r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
    }
}

/// A quoted SQL string literal of text verify made itself (markers, hex
/// secrets). Backslashes are dropped: PostgreSQL and MySQL read them
/// differently, and none belongs in such a text.
pub fn literal(s: &str) -> String {
    format!("'{}'", s.replace('\\', "").replace('\'', "''"))
}

/// Sixteen random bytes, hex: the sandbox role's password.
pub fn secret() -> String {
    use std::io::Read;
    let mut b = [0u8; 16];
    let ok = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if ok.is_err() {
        // No /dev/urandom: the std hasher's per-process random keys.
        use std::hash::{BuildHasher, Hasher};
        for chunk in b.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .elapsed()
                    .map_or(0, |d| d.as_nanos()),
            );
            chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
        }
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_identifiable() {
        let a = unique_name();
        let b = unique_name();
        assert_ne!(a, b);
        assert!(a.starts_with(&format!("platcheck_verify_{}_", std::process::id())));
    }

    #[test]
    fn markers_round_trip_and_judge_liveness() {
        let me = Marker::ours();
        assert_eq!(Marker::parse(&me.text()), Some(me.clone()));
        assert!(!me.is_gone(), "this process is alive");
        let gone = Marker {
            pid: me.pid,
            start: me.start + 1,
            ..me.clone()
        };
        assert!(gone.is_gone(), "same pid, another start time: a reused pid");
        let elsewhere = Marker {
            host: format!("{}-other", me.host),
            start: 1,
            ..me.clone()
        };
        assert!(
            !elsewhere.is_gone(),
            "another machine's marker is never judged"
        );
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let dead = Marker {
            pid,
            start: 1,
            ..me.clone()
        };
        assert!(dead.is_gone());
        assert_eq!(Marker::parse("a comment someone wrote"), None);
    }

    #[test]
    fn literals_and_secrets() {
        assert_eq!(literal("it's"), "'it''s'");
        let s = secret();
        assert_eq!(s.len(), 32);
        assert_ne!(s, secret());
    }
}
