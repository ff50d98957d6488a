//! A fake GitHub release on 127.0.0.1 for the install-script tests: the
//! archive is packed by ci/release/package.sh from the real test binary, and
//! a tiny HTTP/1.1 server (std only, one thread, loopback only) serves it,
//! answering 404 for anything it was not given. It stops when dropped.
#![allow(dead_code)]
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn tag() -> String {
    format!("v{VERSION}")
}

/// The release asset name of a target, as package.sh writes it.
pub fn asset(target: &str) -> String {
    format!("platcheck-v{VERSION}-{target}.tar.gz")
}

/// A release directory (archive + SHA256SUMS) packed from the real binary by
/// the release workflow's own script.
pub fn pack(target: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new("bash")
        .arg(root.join("ci/release/package.sh"))
        .arg(target)
        .arg(env!("CARGO_BIN_EXE_platcheck"))
        .arg(dir.path())
        .env("PLATCHECK_ARCHIVE_LEVEL", "1")
        .output()
        .expect("bash runs");
    assert!(
        o.status.success(),
        "package.sh: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// The files of a release directory under `/releases/download/<tag>/`.
pub fn release_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (
                format!("/releases/download/{}/{name}", tag()),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    requests: Arc<Mutex<Vec<String>>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    pub fn start(files: BTreeMap<String, Vec<u8>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let thread = {
            let (stop, requests) = (stop.clone(), requests.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        serve(stream, &files, &requests);
                    }
                }
            })
        };
        Server {
            addr,
            stop,
            requests,
            thread: Some(thread),
        }
    }

    /// The base the install script downloads from (PLATCHECK_RELEASES).
    pub fn releases_url(&self) -> String {
        format!("http://{}/releases/download", self.addr)
    }

    /// Every path requested so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees the flag and ends.
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(mut stream: TcpStream, files: &BTreeMap<String, Vec<u8>>, requests: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // Headers end at the first empty line; at most 100 of them.
    for _ in 0..100 {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header.trim().is_empty() => break,
            Ok(_) => {}
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if method.is_empty() {
        return;
    }
    requests.lock().unwrap().push(path.to_string());
    let (status, body): (&str, &[u8]) = match (method, files.get(path)) {
        ("GET", Some(body)) => ("200 OK", body),
        _ => ("404 Not Found", b"Not Found"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Both);
}
