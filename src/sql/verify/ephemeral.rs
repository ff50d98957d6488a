//! verify's own throwaway server, the default when no `--database-url` is
//! given: a PostgreSQL (`initdb` + `postgres`) or MariaDB/MySQL
//! (`mariadb-install-db`/`mysqld --initialize-insecure` + the server) made
//! from the installed binaries in a private temporary directory, reachable
//! only through a unix socket in that directory (no TCP port), with a
//! random password, and run as an unprivileged user (`nobody` when verify
//! runs as root: PostgreSQL refuses root, and a migration's shell command
//! must not get root). It is stopped and its directory removed on every
//! way out: a guard on normal ends, errors and panics, the signal thread
//! on SIGINT/SIGTERM/SIGHUP, the kernel (parent-death signal) when verify
//! is killed outright, and the next run's sweep of directories whose
//! owner is gone.
use super::VerifyError;
use super::ephemeral_bins::{self, Kind};
use super::scratch::{self, Marker};
use super::signals::{self, Registration};
#[path = "ephemeral_start.rs"]
mod start;
use start::{start_my, start_pg};
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const DIR_PREFIX: &str = "platcheck-verify-";
const OWNER_FILE: &str = "platcheck-owner";
const READY_WITHIN: Duration = Duration::from_secs(60);
const PG_PORT: u16 = 5432;

pub struct Server {
    pub kind: Kind,
    url: String,
    dir: PathBuf,
    child: Arc<Mutex<Option<Child>>>,
    cleanup: Option<Registration>,
}

/// The unprivileged user a server runs as when verify runs as root.
fn unprivileged() -> Result<Option<(u32, u32)>, VerifyError> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let name = c"nobody";
    // SAFETY: getpwnam returns a pointer to static storage or null; the
    // fields are read before any other passwd call.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        return Err(VerifyError(
            "verify runs as root and found no `nobody` user to run its throwaway server as (PostgreSQL refuses to run as root); create one, run verify as an ordinary user, or give --database-url".into(),
        ));
    }
    // SAFETY: pw is non-null and points to a valid passwd entry.
    Ok(Some(unsafe { ((*pw).pw_uid, (*pw).pw_gid) }))
}

fn own(path: &Path, user: Option<(u32, u32)>) -> Result<(), VerifyError> {
    let Some((uid, gid)) = user else {
        return Ok(());
    };
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).map_err(|e| {
        VerifyError(format!(
            "cannot hand {} to the server's user: {e}",
            path.display()
        ))
    })
}

fn io(what: &str) -> impl Fn(std::io::Error) -> VerifyError + '_ {
    move |e| VerifyError(format!("{what}: {e}"))
}

/// A process's start time, to tell it from a later one with its pid.
fn started(pid: u32) -> u64 {
    scratch::start_time(pid).unwrap_or(0)
}

/// Stops server processes and removes directories whose owner is gone.
pub fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.starts_with(DIR_PREFIX) || !e.path().is_dir() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(e.path().join(OWNER_FILE)) else {
            continue;
        };
        let mut lines = text.lines();
        let Some(owner) = lines.next().and_then(Marker::parse) else {
            continue;
        };
        if !owner.is_gone() {
            continue;
        }
        if let Some((pid, start)) = lines.next().and_then(|l| {
            let (p, s) = l.strip_prefix("server ")?.split_once(' ')?;
            Some((p.parse::<u32>().ok()?, s.parse::<u64>().ok()?))
        }) && started(pid) == start
            && start != 0
        {
            // SAFETY: kill(2) on a pid whose start time proves it is the
            // server this directory recorded.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        }
        let _ = std::fs::remove_dir_all(e.path());
    }
}

fn spawn(
    cmd: &mut Command,
    dir: &Path,
    user: Option<(u32, u32)>,
    death: libc::c_int,
) -> Result<Child, VerifyError> {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("log"))
        .map_err(io("cannot open the server's log"))?;
    let log2 = log
        .try_clone()
        .map_err(io("cannot open the server's log"))?;
    cmd.current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        // Its own process group: a terminal's Ctrl-C reaches verify, which
        // stops the server in order, not the server directly.
        .process_group(0);
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
    parent_death(cmd, death);
    cmd.spawn().map_err(io(&format!(
        "cannot start {}",
        cmd.get_program().to_string_lossy()
    )))
}

/// On Linux the kernel sends `sig` to the server when verify dies, even by
/// `kill -9`. The signal follows the thread that spawned the server, so it
/// is only set from the main thread, which lives as long as the process.
#[cfg(target_os = "linux")]
fn parent_death(cmd: &mut Command, sig: libc::c_int) {
    // SAFETY: gettid and getpid have no preconditions.
    if unsafe { libc::gettid() != libc::getpid() } {
        return;
    }
    // SAFETY: prctl and getppid are async-signal-safe, as pre_exec requires.
    let parent = unsafe { libc::getpid() };
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, sig as libc::c_ulong);
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn parent_death(_: &mut Command, _: libc::c_int) {}

fn run_init(
    cmd: &mut Command,
    dir: &Path,
    user: Option<(u32, u32)>,
    what: &str,
) -> Result<(), VerifyError> {
    let mut child = spawn(cmd, dir, user, libc::SIGKILL)?;
    let status = child.wait().map_err(io(what))?;
    if status.success() {
        Ok(())
    } else {
        Err(VerifyError(format!(
            "{what} failed ({status}):\n{}",
            tail(dir)
        )))
    }
}

/// The end of the server's log, for an error message.
fn tail(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

impl Server {
    /// Starts a throwaway server of `kind`; `engine_bin` is `--engine-bin`.
    pub fn start(kind: Kind, engine_bin: Option<&Path>) -> Result<Server, VerifyError> {
        let bins = ephemeral_bins::find(kind, engine_bin)?;
        sweep();
        let user = unprivileged()?;
        let dir = std::env::temp_dir().join(format!(
            "{DIR_PREFIX}{}-{}",
            std::process::id(),
            scratch::secret()
        ));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(io("cannot create the server's directory"))?;
        std::fs::write(dir.join(OWNER_FILE), format!("{}\n", Marker::ours().text()))
            .map_err(io("cannot write the server's owner file"))?;
        own(&dir, user)?;
        let child = Arc::new(Mutex::new(None::<Child>));
        let (c2, d2) = (child.clone(), dir.clone());
        let cleanup = signals::register(move || stop(&c2, kind, &d2));
        let mut server = Server {
            kind,
            url: String::new(),
            dir: dir.clone(),
            child,
            cleanup: Some(cleanup),
        };
        let password = scratch::secret();
        let spawned = match kind {
            Kind::Postgres => start_pg(&bins, &dir, user, &password)?,
            _ => start_my(kind, &bins, &dir, user)?,
        };
        let pid = spawned.id();
        *server.child.lock().unwrap_or_else(|p| p.into_inner()) = Some(spawned);
        let owner = format!("{}\nserver {pid} {}\n", Marker::ours().text(), started(pid));
        let _ = std::fs::write(dir.join(OWNER_FILE), owner);
        server.url = server.wait_ready(&password)?;
        Ok(server)
    }

    /// The admin connection string: PostgreSQL's key-value form, or a
    /// `mysql://` URL with the socket.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// For a test harness that shares one server between tests running on
    /// other threads: the server outlives this value and is stopped (and
    /// its directory removed) by a watchdog once the process is gone.
    pub fn keep_until_exit(mut self) {
        let pid = self
            .child
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map_or(0, Child::id);
        let script = format!(
            "while kill -0 {me} 2>/dev/null; do sleep 1; done; kill -9 {pid} 2>/dev/null; sleep 1; rm -rf '{dir}'",
            me = std::process::id(),
            dir = self.dir.display()
        );
        let _ = Command::new("sh")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn();
        std::mem::forget(self.cleanup.take());
    }

    fn alive(&self) -> Result<(), VerifyError> {
        let mut guard = self.child.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_mut().map(Child::try_wait) {
            Some(Ok(Some(status))) => Err(VerifyError(format!(
                "the throwaway {} server exited ({status}):\n{}",
                self.kind.name(),
                tail(&self.dir)
            ))),
            _ => Ok(()),
        }
    }

    fn wait_ready(&self, password: &str) -> Result<String, VerifyError> {
        let start = Instant::now();
        loop {
            self.alive()?;
            let attempt = match self.kind {
                Kind::Postgres => self.pg_ready(password),
                _ => self.my_ready(password),
            };
            match attempt {
                Ok(url) => return Ok(url),
                Err(e) if start.elapsed() > READY_WITHIN => {
                    return Err(VerifyError(format!(
                        "the throwaway {} server did not accept connections within {} s ({e}):\n{}",
                        self.kind.name(),
                        READY_WITHIN.as_secs(),
                        tail(&self.dir)
                    )));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    fn pg_ready(&self, password: &str) -> Result<String, String> {
        let url = format!(
            "host={} port={PG_PORT} user=platcheck password={password} dbname=postgres connect_timeout=10",
            self.dir.display()
        );
        let cfg: postgres::Config = url.parse().map_err(|e: postgres::Error| e.to_string())?;
        cfg.connect(postgres::NoTls).map_err(|e| e.to_string())?;
        Ok(url)
    }

    fn my_ready(&self, password: &str) -> Result<String, String> {
        use mysql::prelude::Queryable;
        let sock = self.dir.join("sock");
        let base = format!("mysql://root@localhost/?socket={}", sock.display());
        let with_pw = format!(
            "mysql://root:{password}@localhost/?socket={}",
            sock.display()
        );
        let open = |u: &str| {
            mysql::Opts::from_url(u)
                .map_err(|e| e.to_string())
                .and_then(|o| mysql::Conn::new(o).map_err(|e| e.to_string()))
        };
        if open(&with_pw).is_ok() {
            return Ok(with_pw);
        }
        // Fresh from initialisation, root has no password: give it one, so
        // only verify (which knows it) can log in as root.
        let mut c = open(&base)?;
        c.query_drop(format!(
            "ALTER USER 'root'@'localhost' IDENTIFIED BY '{password}'"
        ))
        .map_err(|e| e.to_string())?;
        Ok(with_pw)
    }
}

/// Stops the server (a shutdown signal, then SIGKILL after ten seconds)
/// and removes its directory.
fn stop(child: &Mutex<Option<Child>>, kind: Kind, dir: &Path) {
    let mut guard = child.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(mut c) = guard.take() {
        let sig = if kind == Kind::Postgres {
            libc::SIGQUIT
        } else {
            libc::SIGTERM
        };
        // SAFETY: kill(2) on our own child, which has not been reaped.
        unsafe { libc::kill(c.id() as libc::pid_t, sig) };
        let start = Instant::now();
        while matches!(c.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    let _ = std::fs::remove_dir_all(dir);
}

impl Drop for Server {
    fn drop(&mut self) {
        // The registration's drop stops the server and removes the directory.
        self.cleanup.take();
    }
}
