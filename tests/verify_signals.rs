//! Every way out of `platcheck verify` cleans up: SIGTERM and SIGHUP (and
//! SIGINT) while a statement runs leave no scratch database, no sandbox
//! role and no session behind, and exit 128 + the signal; a `kill -9`
//! leaves a marked scratch database that the next run removes; a throwaway
//! server goes with the process. Also the lock watcher's connection budget.
#[path = "verify_oracle/servers.rs"]
mod servers;

use mysql::prelude::Queryable;
use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::{Options, ephemeral};
use servers::Server;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The process runs (a zombie waiting for its parent does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, r)| r.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_platcheck"))
}

fn migration(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("V1__slow.sql");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

fn spawn(args: &[&str], file: &Path) -> Child {
    bin()
        .arg("verify")
        .args(args)
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start platcheck")
}

/// Polls until `f` holds (a server-side condition), or fails the test.
fn until(what: &str, child: &mut Child, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        if let Ok(Some(status)) = child.try_wait() {
            let out = child.wait_with_output_lossy();
            panic!("platcheck exited ({status}) before {what}: {out}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

trait Lossy {
    fn wait_with_output_lossy(&mut self) -> String;
}

impl Lossy for Child {
    fn wait_with_output_lossy(&mut self) -> String {
        use std::io::Read;
        let mut s = String::new();
        if let Some(mut o) = self.stdout.take() {
            let _ = o.read_to_string(&mut s);
        }
        if let Some(mut e) = self.stderr.take() {
            let _ = e.read_to_string(&mut s);
        }
        s
    }
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
}

fn wait_exit(child: &mut Child) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "platcheck did not exit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Scratch objects and sessions of the platcheck process `pid`.
fn pg_leftovers(admin: &mut postgres::Client, pid: u32) -> Vec<String> {
    let like = format!("platcheck\\_verify\\_{pid}\\_%");
    let mut out = Vec::new();
    for q in [
        "SELECT 'database ' || datname FROM pg_database WHERE datname LIKE $1",
        "SELECT 'role ' || rolname FROM pg_roles WHERE rolname LIKE $1",
        "SELECT 'session ' || pid::text || ' ' || coalesce(query, '') FROM pg_stat_activity WHERE usename LIKE $1 OR datname LIKE $1",
    ] {
        for r in admin.query(q, &[&like]).unwrap() {
            out.push(r.get(0));
        }
    }
    out
}

fn sleeping_as(admin: &mut postgres::Client, pid: u32) -> bool {
    let like = format!("platcheck\\_verify\\_{pid}\\_%");
    admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE usename LIKE $1 AND query LIKE '%pg_sleep%' AND state = 'active'",
            &[&like],
        )
        .is_ok_and(|r| r.get::<_, i64>(0) > 0)
}

fn pg() -> Option<(String, postgres::Client)> {
    match servers::postgres() {
        Server::Url(u) => {
            let c = postgres::Client::connect(&u, postgres::NoTls).unwrap();
            Some((u, c))
        }
        Server::Skip(why) => {
            println!("skipped: {why}");
            None
        }
    }
}

fn pg_signal_cleans_up(sig: libc::c_int) {
    let Some((url, mut admin)) = pg() else { return };
    let (_d, file) = migration("CREATE TABLE t (a int);\nSELECT pg_sleep(60);\n");
    let mut child = spawn(&["--database-url", &url], &file);
    let pid = child.id();
    until("the statement runs", &mut child, || {
        sleeping_as(&mut admin, pid)
    });
    assert!(!pg_leftovers(&mut admin, pid).is_empty());
    signal(&child, sig);
    assert_eq!(
        wait_exit(&mut child),
        128 + sig,
        "{}",
        child.wait_with_output_lossy()
    );
    assert_eq!(pg_leftovers(&mut admin, pid), Vec::<String>::new());
}

#[test]
fn sigterm_drops_the_scratch_database_role_and_sessions() {
    pg_signal_cleans_up(libc::SIGTERM);
}

#[test]
fn sighup_drops_the_scratch_database_role_and_sessions() {
    pg_signal_cleans_up(libc::SIGHUP);
}

#[test]
fn sigint_drops_the_scratch_database_role_and_sessions() {
    pg_signal_cleans_up(libc::SIGINT);
}

#[test]
fn mariadb_sigterm_drops_the_scratch_database_account_and_sessions() {
    let url = match servers::mariadb() {
        Server::Url(u) => u,
        Server::Skip(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let mut admin = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap()).unwrap();
    let (_d, file) = migration("CREATE TABLE t (a int);\nSELECT SLEEP(60);\n");
    let mut child = spawn(&["--database-url", &url], &file);
    let like = format!("platcheck\\_verify\\_{}\\_%", child.id());
    let count = |admin: &mut mysql::Conn, q: &str| -> i64 {
        admin.exec_first(q, (&like,)).unwrap().unwrap_or(0)
    };
    until("the statement runs", &mut child, || {
        count(
            &mut admin,
            "SELECT count(*) FROM information_schema.PROCESSLIST WHERE USER LIKE ? AND INFO LIKE '%SLEEP%'",
        ) > 0
    });
    signal(&child, libc::SIGTERM);
    assert_eq!(wait_exit(&mut child), 128 + libc::SIGTERM);
    let left = |admin: &mut mysql::Conn| -> Vec<i64> {
        [
            "SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?",
            "SELECT count(*) FROM mysql.user WHERE User LIKE ?",
            "SELECT count(*) FROM information_schema.PROCESSLIST WHERE USER LIKE ?",
        ]
        .iter()
        .map(|q| admin.exec_first(*q, (&like,)).unwrap().unwrap_or(0))
        .collect()
    };
    assert_eq!(
        left(&mut admin),
        [0, 0, 0],
        "database, accounts, sessions left"
    );
}

#[test]
fn a_kill_9_leftover_is_removed_by_the_next_run() {
    let Some((url, mut admin)) = pg() else { return };
    let (_d, file) = migration("SELECT pg_sleep(60);\n");
    let mut child = spawn(&["--database-url", &url], &file);
    let pid = child.id();
    until("the statement runs", &mut child, || {
        sleeping_as(&mut admin, pid)
    });
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child);
    let left = pg_leftovers(&mut admin, pid);
    assert!(
        left.iter().any(|l| l.starts_with("database ")),
        "kill -9 leaves the scratch database: {left:?}"
    );
    let v = PgVerifier::connect_with(&url, &Options::default()).expect("connect");
    drop(v);
    assert_eq!(pg_leftovers(&mut admin, pid), Vec::<String>::new());
}

#[test]
fn the_lock_watcher_keeps_to_its_connection_budget_and_says_so() {
    let Some((url, mut admin)) = pg() else { return };
    let mut sql: String = (0..30)
        .map(|i| format!("CREATE TABLE t{i} (id int PRIMARY KEY, a int);\n"))
        .collect();
    sql.push_str(
        "CREATE INDEX CONCURRENTLY t0_a ON t0 (a);\nCREATE INDEX CONCURRENTLY t1_a ON t1 (a);\n",
    );
    let (_d, file) = migration(&sql);
    let mut child = spawn(&["--watch-connections", "8", "--database-url", &url], &file);
    let like = format!("platcheck\\_verify\\_{}\\_%", child.id());
    let mut most = 0;
    while child.try_wait().unwrap().is_none() {
        let n: i64 = admin
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE usename LIKE $1",
                &[&like],
            )
            .unwrap()
            .get(0);
        most = most.max(n);
        std::thread::sleep(Duration::from_millis(2));
    }
    let out = child.wait_with_output_lossy();
    println!("{most} sandbox sessions at most");
    // The replay's own session and the watcher's pool of eight.
    assert!(most <= 9, "{most} sessions at once");
    assert!(
        most >= 3,
        "the watch ran with blockers ({most} sessions seen)"
    );
    assert!(out.contains("serialised"), "{out}");
}

#[test]
fn a_throwaway_server_goes_with_the_process_on_sigterm() {
    if std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0") {
        println!("skipped: PLATCHECK_DB_TESTS=0");
        return;
    }
    let (_d, file) = migration("SELECT pg_sleep(60);\n");
    let mut child = spawn(&[], &file);
    let prefix = format!("platcheck-verify-{}-", child.id());
    let dir = || {
        std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
    };
    let server_pid = || -> Option<u32> {
        let owner = std::fs::read_to_string(dir()?.join("platcheck-owner")).ok()?;
        owner.lines().nth(1)?.split(' ').nth(1)?.parse().ok()
    };
    until("the throwaway server runs", &mut child, || {
        server_pid().is_some()
    });
    let server = server_pid().unwrap();
    // Long enough for the replay to be inside its statement.
    std::thread::sleep(Duration::from_secs(2));
    signal(&child, libc::SIGTERM);
    assert_eq!(
        wait_exit(&mut child),
        128 + libc::SIGTERM,
        "{}",
        child.wait_with_output_lossy()
    );
    assert!(dir().is_none(), "the server's directory is left");
    assert!(!running(server), "the server process is left");
}

#[test]
fn a_throwaway_server_of_a_killed_run_is_stopped_and_swept() {
    if std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0") {
        println!("skipped: PLATCHECK_DB_TESTS=0");
        return;
    }
    let (_d, file) = migration("SELECT pg_sleep(60);\n");
    let mut child = spawn(&[], &file);
    let prefix = format!("platcheck-verify-{}-", child.id());
    let dir = || {
        std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
    };
    let server_pid = || -> Option<u32> {
        let owner = std::fs::read_to_string(dir()?.join("platcheck-owner")).ok()?;
        owner.lines().nth(1)?.split(' ').nth(1)?.parse().ok()
    };
    until("the throwaway server runs", &mut child, || {
        server_pid().is_some()
    });
    let server = server_pid().unwrap();
    signal(&child, libc::SIGKILL);
    wait_exit(&mut child);
    // The kernel's parent-death signal stops the server…
    let start = Instant::now();
    while running(server) && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!running(server), "the server outlived kill -9");
    // …and the next run's sweep removes its directory.
    assert!(dir().is_some());
    ephemeral::sweep();
    assert!(dir().is_none(), "the sweep left the directory");
}

fn scratch_exists(admin: &mut postgres::Client, name: &str) -> bool {
    let n: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_database WHERE datname = $1",
            &[&name],
        )
        .unwrap()
        .get(0);
    let r: i64 = admin
        .query_one("SELECT count(*) FROM pg_roles WHERE rolname = $1", &[&name])
        .unwrap()
        .get(0);
    n + r > 0
}

#[test]
fn a_panic_drops_the_scratch_database_and_role() {
    let Some((url, mut admin)) = pg() else { return };
    let name = std::sync::Mutex::new(String::new());
    let result = std::panic::catch_unwind(|| {
        let v = PgVerifier::connect_with(&url, &Options::default()).expect("connect");
        *name.lock().unwrap() = v.scratch_name().unwrap().to_string();
        panic!("a bug in the middle of a replay");
    });
    assert!(result.is_err());
    let name = name.into_inner().unwrap();
    assert!(name.starts_with("platcheck_verify_"), "{name}");
    assert!(!scratch_exists(&mut admin, &name), "{name} is left");
}

#[test]
fn a_lost_connection_ends_the_run_and_drops_the_scratch_database() {
    use platcheck::sql::verify::Script;
    let Some((url, mut admin)) = pg() else { return };
    let mut v = PgVerifier::connect_with(&url, &Options::default()).expect("connect");
    let name = v.scratch_name().unwrap().to_string();
    let killer = {
        let url = url.clone();
        let name = name.clone();
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(60) {
                let n: i64 = c
                    .query_one(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep%' AND state = 'active'",
                        &[&name],
                    )
                    .unwrap()
                    .get(0);
                if n > 0 {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let err = v
        .replay(&[Script {
            name: "lost.sql".into(),
            text: "SELECT pg_sleep(60);\nCREATE TABLE never (a int);\n".into(),
        }])
        .expect_err("the replay cannot go on without its session");
    killer.join().unwrap();
    assert!(
        err.0.contains("lost") || err.0.contains("terminat"),
        "{}",
        err.0
    );
    drop(v);
    assert!(!scratch_exists(&mut admin, &name), "{name} is left");
}
