//! A pseudo-terminal for end-to-end tests of what platcheck asks only when
//! someone can answer (stdin and stderr are terminals). libc's
//! posix_openpt family, which the crate already depends on: no expect
//! tool, no extra crate.
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub struct Session {
    master: File,
    output: Receiver<Vec<u8>>,
    seen: String,
    pub child: Child,
}

/// Starts `cmd` with stdin and stderr on the terminal (stdout stays a
/// pipe, as when output is redirected).
pub fn spawn(mut cmd: Command) -> Session {
    // SAFETY: plain libc calls on a descriptor this function owns; every
    // return value is checked.
    let (master, slave_path) = unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
        assert_eq!(libc::grantpt(fd), 0, "grantpt");
        assert_eq!(libc::unlockpt(fd), 0, "unlockpt");
        let mut name = [0 as libc::c_char; 256];
        assert_eq!(
            libc::ptsname_r(fd, name.as_mut_ptr(), name.len()),
            0,
            "ptsname_r"
        );
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_string_lossy()
            .into_owned();
        (File::from_raw_fd(fd), path)
    };
    let slave = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&slave_path)
        .unwrap_or_else(|e| panic!("open {slave_path}: {e}"));
    cmd.stdin(slave.try_clone().unwrap())
        .stderr(slave)
        .stdout(Stdio::piped());
    let child = cmd.spawn().expect("the binary starts");
    // The command holds the only slave descriptors now: reading the master
    // ends (EIO) when it exits.
    let mut reader = master.try_clone().unwrap();
    let (tx, output) = channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    Session {
        master,
        output,
        seen: String::new(),
        child,
    }
}

impl Session {
    /// Waits until the terminal has shown `text` (after what earlier waits
    /// consumed); panics with everything shown when it never comes. The
    /// limit only keeps a broken prompt from hanging the suite.
    pub fn expect(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(at) = self.seen.find(text) {
                self.seen.drain(..at + text.len());
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.seen.push_str(&String::from_utf8_lossy(&chunk)),
                Err(_) => panic!(
                    "the terminal never showed {text:?}; it showed:\n{}",
                    self.seen
                ),
            }
        }
    }

    /// Types a line, as a user pressing Enter.
    pub fn send_line(&mut self, line: &str) {
        self.master
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
        self.master.flush().unwrap();
    }
}
