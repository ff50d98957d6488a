//! Throwaway replicated pairs for the probe tests that need a replica the
//! shared services do not have: a PostgreSQL primary with a streaming
//! standby (initdb + pg_basebackup, the binaries verify's throwaway server
//! uses), and a Redis primary with a replica, each on free TCP ports of
//! 127.0.0.1 under a temporary directory, stopped and removed on drop.
#![allow(dead_code)]
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A TCP port nobody listens on now (the OS picks it).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// PostgreSQL refuses to run as root: the servers run as `nobody` then.
fn unprivileged() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions; getpwnam returns static storage
    // or null, read before any other passwd call.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        let pw = libc::getpwnam(c"nobody".as_ptr());
        assert!(
            !pw.is_null(),
            "running as root needs a `nobody` user for PostgreSQL"
        );
        Some(((*pw).pw_uid, (*pw).pw_gid))
    }
}

fn run_as(bin: &Path, args: &[&str], user: Option<(u32, u32)>, dir: &Path) {
    let mut cmd = Command::new(bin);
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    assert!(
        out.status.success(),
        "{} {args:?}: {}\n{}",
        bin.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}: not within 60s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A PostgreSQL primary on `port` and a streaming standby `replica1` on
/// `standby_port`, trust authentication for `root` over 127.0.0.1 only.
pub struct PgPair {
    pub port: u16,
    pub standby_port: u16,
    bin: PathBuf,
    user: Option<(u32, u32)>,
    dir: tempfile::TempDir,
}

impl PgPair {
    /// `standby_conf` goes into the standby's postgresql.conf
    /// (`recovery_min_apply_delay` for a lagging replica).
    pub fn start(standby_conf: &str) -> PgPair {
        let bins = platcheck::sql::verify::ephemeral_bins::find(
            platcheck::sql::verify::ephemeral_bins::Kind::Postgres,
            None,
        )
        .expect("PostgreSQL's server binaries (initdb, pg_ctl, pg_basebackup)");
        let bin = bins.init.parent().unwrap().to_path_buf();
        let user = unprivileged();
        let dir = tempfile::Builder::new()
            .prefix("platcheck-probe-pair-")
            .tempdir()
            .unwrap();
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
        }
        let pair = PgPair {
            port: free_port(),
            standby_port: free_port(),
            bin,
            user,
            dir,
        };
        let (primary, standby) = (pair.data("primary"), pair.data("standby"));
        let sock = pair.dir.path().display().to_string();
        pair.tool(
            "initdb",
            &["-D", &primary, "-U", "root", "--auth=trust", "-N"],
        );
        let conf = format!(
            "port = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{sock}'\nwal_level = replica\nmax_wal_senders = 4\nfsync = off\nstatement_timeout = '30s'\nidle_in_transaction_session_timeout = '60s'\n",
            pair.port
        );
        append(&Path::new(&primary).join("postgresql.conf"), &conf);
        pair.pg_ctl(&primary, "start");
        // Streams from the start (-X stream) and writes standby.signal and
        // primary_conninfo (-R).
        let port = pair.port.to_string();
        pair.tool(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "root",
                "-D",
                &standby,
                "-R",
                "-X",
                "stream",
                "-c",
                "fast",
            ],
        );
        // cluster_name is the walreceiver's application_name: the replica's
        // name in pg_stat_replication.
        let conf = format!(
            "port = {}\ncluster_name = 'replica1'\nhot_standby = on\n{standby_conf}\n",
            pair.standby_port
        );
        append(&Path::new(&standby).join("postgresql.conf"), &conf);
        pair.pg_ctl(&standby, "start");
        wait_for("the standby streaming", || {
            pair.primary()
                .query_one(
                    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'",
                    &[],
                )
                .map(|r| r.get::<_, i64>(0) == 1)
                .unwrap_or(false)
        });
        pair
    }

    fn data(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    fn tool(&self, name: &str, args: &[&str]) {
        run_as(&self.bin.join(name), args, self.user, self.dir.path());
    }

    fn pg_ctl(&self, data: &str, action: &str) {
        let log = format!("{data}.log");
        let mut args = vec!["-D", data, "-l", &log, "-w", "-t", "60"];
        if action == "stop" {
            args.extend(["-m", "immediate"]);
        }
        args.push(action);
        self.tool("pg_ctl", &args);
    }

    pub fn url(&self) -> String {
        format!("postgres://root@127.0.0.1:{}/postgres", self.port)
    }

    /// An admin session on the primary (the test's, not the probe's).
    pub fn primary(&self) -> postgres::Client {
        postgres::Client::connect(&self.url(), postgres::NoTls).unwrap()
    }

    /// Sets a primary setting (this server is the test's own) and reloads.
    pub fn set(&self, name: &str, value: &str) {
        let mut c = self.primary();
        // Two statements: ALTER SYSTEM refuses a (multi-statement) transaction.
        c.batch_execute(&format!("ALTER SYSTEM SET {name} = '{value}'"))
            .unwrap();
        c.batch_execute("SELECT pg_reload_conf()").unwrap();
        wait_for(name, || {
            self.primary()
                .query_one(&format!("SHOW {name}"), &[])
                .map(|r| r.get::<_, String>(0) == value)
                .unwrap_or(false)
        });
    }
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

impl Drop for PgPair {
    fn drop(&mut self) {
        for d in ["standby", "primary"] {
            let data = self.data(d);
            if Path::new(&data).join("postmaster.pid").exists() {
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.pg_ctl(&data, "stop");
                }));
            }
        }
    }
}

/// A Redis server of a test, without RDB snapshots, killed on drop.
pub struct RedisServer {
    pub port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl RedisServer {
    /// `args` are extra `redis-server` options (`--appendonly yes`,
    /// `--replicaof 127.0.0.1 <port>`).
    pub fn start(args: &[&str]) -> RedisServer {
        let dir = tempfile::Builder::new()
            .prefix("platcheck-probe-redis-")
            .tempdir()
            .unwrap();
        let port = free_port();
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
            ])
            .arg("--dir")
            .arg(dir.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server on PATH");
        let server = RedisServer {
            port,
            child,
            _dir: dir,
        };
        wait_for("redis-server answering", || server.info("server").is_some());
        server
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// `INFO <section>`, or `None` while the server is not up.
    pub fn info(&self, section: &str) -> Option<String> {
        let client = redis::Client::open(self.url()).ok()?;
        let mut c = client
            .get_connection_with_timeout(Duration::from_secs(1))
            .ok()?;
        redis::cmd("INFO").arg(section).query(&mut c).ok()
    }

    /// Waits until `INFO replication` says `line`.
    pub fn wait_replication(&self, line: &str) {
        wait_for(line, || {
            self.info("replication")
                .is_some_and(|i| i.lines().any(|l| l.trim() == line))
        });
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
