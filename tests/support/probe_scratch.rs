//! Scratch state on the local servers for the probe tests: uniquely named
//! databases (PostgreSQL, MariaDB) that the test creates, configures through
//! their own per-database settings and drops again. Nothing global is
//! changed: other test runs use the same servers at the same time, so a
//! global setting is only ever read, and a mismatch is made by declaring a
//! contract that disagrees with it.
#![allow(dead_code)]
use mysql::prelude::Queryable;
use platcheck::engine::{self, Outcome};
use platcheck::settings::{Overrides, ProbeRequest};
use std::time::{SystemTime, UNIX_EPOCH};

pub const PG_ADMIN: &str = "postgres://root@127.0.0.1:5432/test";
pub const MY_ADMIN: &str = "mysql://root@127.0.0.1:3306/test";
pub const REDIS: &str = "redis://127.0.0.1:6379";

/// `PLATCHECK_DB_TESTS=0` skips the server tests, saying so; otherwise a
/// missing server fails them loudly.
pub fn skipped() -> bool {
    let skip = std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0");
    if skip {
        println!("skipped: PLATCHECK_DB_TESTS=0: probe tests need the local servers");
    }
    skip
}

/// A name no other run uses: prefix, process id and clock.
pub fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    // Fixed width, so that messages wrap the same in every run's snapshot.
    format!("{prefix}_{:07}_{nanos:09}", std::process::id())
}

/// A PostgreSQL database of this test, dropped (with its sessions) on drop.
pub struct PgScratch {
    pub name: String,
}

impl PgScratch {
    /// A database with the given per-database settings and SQL run in it.
    pub fn new(prefix: &str, settings: &[(&str, &str)], setup: &str) -> PgScratch {
        let name = unique(prefix);
        let mut admin = postgres::Client::connect(PG_ADMIN, postgres::NoTls)
            .expect("PostgreSQL 15 on 127.0.0.1:5432 (user root, db test)");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        for (k, v) in settings {
            admin
                .batch_execute(&format!("ALTER DATABASE {name} SET {k} = '{v}'"))
                .unwrap();
        }
        let scratch = PgScratch { name };
        let mut c = postgres::Client::connect(&scratch.url(), postgres::NoTls).unwrap();
        c.batch_execute(setup).unwrap();
        scratch
    }
    pub fn url(&self) -> String {
        format!("postgres://root@127.0.0.1:5432/{}", self.name)
    }
    /// A server setting, read (never set) for contracts that must agree with it.
    pub fn show(&self, setting: &str) -> String {
        let mut c = postgres::Client::connect(&self.url(), postgres::NoTls).unwrap();
        c.query_one(&format!("SHOW {setting}"), &[]).unwrap().get(0)
    }
}

impl Drop for PgScratch {
    fn drop(&mut self) {
        if let Ok(mut admin) = postgres::Client::connect(PG_ADMIN, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// A MariaDB database of this test, dropped on drop.
pub struct MyScratch {
    pub name: String,
}

impl MyScratch {
    pub fn new(prefix: &str, setup: &[&str]) -> MyScratch {
        let name = unique(prefix);
        let mut admin =
            mysql::Conn::new(mysql::Opts::from_url(MY_ADMIN).unwrap()).expect("MariaDB on :3306");
        admin.query_drop(format!("CREATE DATABASE {name}")).unwrap();
        let scratch = MyScratch { name };
        let mut c = mysql::Conn::new(mysql::Opts::from_url(&scratch.url()).unwrap()).unwrap();
        for s in setup {
            c.query_drop(*s).unwrap();
        }
        scratch
    }
    pub fn url(&self) -> String {
        format!("mysql://root@127.0.0.1:3306/{}", self.name)
    }
    pub fn global(&self, var: &str) -> String {
        let mut c = mysql::Conn::new(mysql::Opts::from_url(&self.url()).unwrap()).unwrap();
        c.query_first::<String, _>(format!("SELECT CAST(@@GLOBAL.{var} AS CHAR)"))
            .unwrap()
            .unwrap()
    }
}

impl Drop for MyScratch {
    fn drop(&mut self) {
        if let Ok(mut admin) = mysql::Conn::new(mysql::Opts::from_url(MY_ADMIN).unwrap()) {
            let _ = admin.query_drop(format!("DROP DATABASE IF EXISTS {}", self.name));
        }
    }
}

/// The Redis `maxmemory-policy` (read, never set: it is global).
pub fn redis_policy() -> String {
    let client = redis::Client::open(REDIS).unwrap();
    let mut c = client.get_connection().expect("Redis on 127.0.0.1:6379");
    let kv: Vec<String> = redis::cmd("CONFIG")
        .arg("GET")
        .arg("maxmemory-policy")
        .query(&mut c)
        .unwrap();
    kv[1].clone()
}

/// The seed table of the size tests: 5,000 rows, analysed.
pub const PG_BIG: &str =
    "CREATE TABLE big AS SELECT g AS id FROM generate_series(1, 5000) g; ANALYZE big;";

#[path = "probe_brokers_scratch.rs"]
mod brokers;
// Not every test binary that includes this file probes a broker.
#[allow(unused_imports)]
pub use brokers::*;

/// The config of the probe tests' repositories: a tiny large_table_rows.
pub const CONFIG: &str =
    "version: 1\ntoday: 2026-11-30\nsql:\n  large_table_rows: 1000\nprobe:\n  timeout: 2s\n";

/// Writes `files` into a fresh directory and probes it with `targets`.
pub fn run(files: &[(&str, String)], targets: &[(&str, String)], only_probe: bool) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), CONFIG).unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let overrides = Overrides {
        today: Some(crate::common::today()),
        probe: Some(ProbeRequest {
            targets: targets
                .iter()
                .map(|(n, u)| (n.to_string(), u.clone()))
                .collect(),
            only_probe_rules: only_probe,
        }),
        ..Overrides::default()
    };
    engine::run(&[], dir.path(), &overrides).expect("run succeeds")
}
