//! The database servers the oracle needs: the local ones (PLATCHECK_PG_URL,
//! PLATCHECK_MYSQL_URL, defaulting to this machine's services), else a
//! throwaway instance started from the installed binaries in a temp
//! directory on the URL's port. A watchdog shell stops the instance and
//! removes its directory when the test process exits, however it exits.
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const PG_DEFAULT: &str = "postgres://root@127.0.0.1:5432/test";
pub const MY_DEFAULT: &str = "mysql://root@127.0.0.1:3306/test";

const HOW_TO_INSTALL: &str = "install PostgreSQL 15 and MariaDB 10.11 \
(`apt-get install postgresql-15 mariadb-server`) and start them, or point \
PLATCHECK_PG_URL / PLATCHECK_MYSQL_URL at running servers; set \
PLATCHECK_DB_TESTS=0 to skip the database tests";

pub enum Server {
    Url(String),
    /// Only with PLATCHECK_DB_TESTS=0: the reason, printed by the test.
    Skip(String),
}

fn skip_requested() -> Option<Server> {
    (std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0"))
        .then(|| Server::Skip("PLATCHECK_DB_TESTS=0: database tests skipped".into()))
}

fn port_of(url: &str, default: u16) -> u16 {
    let after_at = url.rsplit('@').next().unwrap_or(url);
    let host_port = after_at.split('/').next().unwrap_or("");
    host_port
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or(default)
}

fn user_of(url: &str) -> String {
    let rest = url.split("://").nth(1).unwrap_or("");
    match rest.split_once('@') {
        Some((cred, _)) => cred.split(':').next().unwrap_or("root").to_string(),
        None => "root".to_string(),
    }
}

fn wait_for_port(port: u16, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn temp_dir(prefix: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temp directory");
    dir
}

/// Stops the instance and deletes its directory once this process is gone.
fn watchdog(stop: &str, dir: &Path) {
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {stop}; rm -rf '{dir}'",
        pid = std::process::id(),
        dir = dir.display()
    );
    let _ = Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn pg_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists())
        .collect();
    found.sort();
    found.pop()
}

/// PostgreSQL refuses to run as root: as root, the instance belongs to
/// the `postgres` system user.
fn as_pg_owner(bin: &Path, dir: &Path) -> Command {
    if is_root() {
        let _ = Command::new("chown")
            .arg("-R")
            .arg("postgres")
            .arg(dir)
            .status();
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin);
        c
    } else {
        Command::new(bin)
    }
}

fn start_pg(url: &str) -> Result<(), String> {
    let bin = pg_bin().ok_or("no initdb under /usr/lib/postgresql/*/bin")?;
    let port = port_of(url, 5432);
    let dir = temp_dir("platcheck-pg");
    let data = dir.join("data");
    run(
        as_pg_owner(&bin.join("initdb"), &dir)
            .arg("-D")
            .arg(&data)
            .args(["-U", &user_of(url), "--auth=trust", "-E", "UTF8"]),
        "initdb",
    )?;
    let opts = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
        dir.display()
    );
    run(
        as_pg_owner(&bin.join("pg_ctl"), &dir)
            .arg("-D")
            .arg(&data)
            .args(["-o", &opts, "-l"])
            .arg(dir.join("log"))
            .args(["-w", "start"]),
        "pg_ctl start",
    )?;
    let stop = format!(
        "{} {} -D '{}' -m immediate stop",
        if is_root() {
            "runuser -u postgres --"
        } else {
            ""
        },
        bin.join("pg_ctl").display(),
        data.display()
    );
    watchdog(&stop, &dir);
    // The URL's database: connect to the always-present `postgres` one to create it.
    let db = url.rsplit('/').next().unwrap_or("test").to_string();
    let admin = format!("postgres://{}@127.0.0.1:{port}/postgres", user_of(url));
    let mut c = postgres::Client::connect(&admin, postgres::NoTls).map_err(|e| e.to_string())?;
    c.batch_execute(&format!("CREATE DATABASE \"{db}\""))
        .map_err(|e| e.to_string())
}

fn start_mariadb(url: &str) -> Result<(), String> {
    let port = port_of(url, 3306);
    let dir = temp_dir("platcheck-mariadb");
    let data = dir.join("data");
    run(
        Command::new("mariadb-install-db")
            .arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .args([
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--user=root",
            ]),
        "mariadb-install-db",
    )?;
    let sock = dir.join("sock");
    Command::new("mariadbd")
        .arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--socket={}", sock.display()))
        .arg(format!("--port={port}"))
        .args(["--bind-address=127.0.0.1", "--user=root"])
        .arg(format!("--log-error={}", dir.join("log").display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("mariadbd: {e}"))?;
    if !wait_for_port(port, Duration::from_secs(30)) {
        return Err(format!(
            "mariadbd did not listen on {port}; see {}/log",
            dir.display()
        ));
    }
    watchdog(
        &format!(
            "mariadb-admin --no-defaults --socket='{}' -uroot shutdown",
            sock.display()
        ),
        &dir,
    );
    use mysql::prelude::Queryable;
    let db = url.rsplit('/').next().unwrap_or("test").to_string();
    let admin = format!("mysql://{}@127.0.0.1:{port}", user_of(url));
    let mut c = mysql::Conn::new(mysql::Opts::from_url(&admin).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    c.query_drop(format!("CREATE DATABASE IF NOT EXISTS `{db}`"))
        .map_err(|e| e.to_string())
}

fn pg_answers(url: &str) -> Result<(), String> {
    postgres::Client::connect(url, postgres::NoTls)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn my_answers(url: &str) -> Result<(), String> {
    let opts = mysql::Opts::from_url(url).map_err(|e| e.to_string())?;
    mysql::Conn::new(opts)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn get(
    var: &str,
    default: &str,
    answers: fn(&str) -> Result<(), String>,
    start: fn(&str) -> Result<(), String>,
) -> Server {
    if let Some(s) = skip_requested() {
        return s;
    }
    let url = std::env::var(var).unwrap_or_else(|_| default.to_string());
    let first = match answers(&url) {
        Ok(()) => return Server::Url(url),
        Err(e) => e,
    };
    eprintln!("{url} does not answer ({first}); starting a throwaway server");
    match start(&url).and_then(|()| answers(&url)) {
        Ok(()) => Server::Url(url),
        Err(e) => panic!(
            "no database server for the verify oracle: {url} does not answer ({first}), \
             and a throwaway instance could not be started ({e}). To run these tests, {HOW_TO_INSTALL}."
        ),
    }
}

/// One server per test process, started at most once.
pub fn postgres() -> Server {
    static URL: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let mut slot = URL.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(u) = slot.as_ref() {
        return Server::Url(u.clone());
    }
    let s = get("PLATCHECK_PG_URL", PG_DEFAULT, pg_answers, start_pg);
    if let Server::Url(u) = &s {
        *slot = Some(u.clone());
    }
    s
}

pub fn mariadb() -> Server {
    static URL: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let mut slot = URL.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(u) = slot.as_ref() {
        return Server::Url(u.clone());
    }
    let s = get("PLATCHECK_MYSQL_URL", MY_DEFAULT, my_answers, start_mariadb);
    if let Server::Url(u) = &s {
        *slot = Some(u.clone());
    }
    s
}
