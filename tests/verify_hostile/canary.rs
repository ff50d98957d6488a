//! Canaries for the hostile-migration suite: a database with a row in it, a
//! role/account, and a snapshot of the server's settings, all created under
//! a name unique to this test run (other tests share the servers) and
//! dropped at the end. What the hostile migrations try to touch is these;
//! afterwards every snapshot must be what it was before.
#![allow(dead_code)]
use mysql::prelude::Queryable;
use std::sync::atomic::{AtomicUsize, Ordering};

static N: AtomicUsize = AtomicUsize::new(0);

/// `pcv<pid>x<n>`: short (MySQL account names), unique per run and test.
pub fn unique() -> String {
    format!(
        "pcv{}x{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

/// With a database name in place of the URL's (a URL, or PostgreSQL's
/// key-value form that a throwaway server's address takes).
pub fn with_db(url: &str, db: &str) -> String {
    if !url.contains("://") {
        let kept: Vec<&str> = url
            .split_whitespace()
            .filter(|kv| !kv.starts_with("dbname="))
            .collect();
        return format!("{} dbname={db}", kept.join(" "));
    }
    match url.rsplit_once('/') {
        Some((base, _)) => format!("{base}/{db}"),
        None => url.to_string(),
    }
}

pub struct PgCanary {
    pub url: String,
    /// Database and role name; hostile SQL uses `{id}_evil` for what it
    /// tries to create.
    pub id: String,
    admin: postgres::Client,
}

#[derive(Debug, PartialEq, Eq)]
pub struct PgSnapshot {
    pub databases: Vec<String>,
    pub roles: Vec<String>,
    pub superusers: Vec<String>,
    pub ledger: Vec<String>,
    pub file_settings: Vec<String>,
    pub role_settings: Vec<String>,
    pub settings: Vec<String>,
}

impl PgCanary {
    pub fn new(url: &str) -> PgCanary {
        let id = unique();
        let mut admin = postgres::Client::connect(url, postgres::NoTls).expect("connect");
        for sql in [
            format!("CREATE DATABASE {id}"),
            format!("CREATE ROLE {id} NOLOGIN"),
            format!("COMMENT ON DATABASE {id} IS 'canary'"),
        ] {
            admin
                .batch_execute(&sql)
                .expect("create the canary database and role");
        }
        let mut db =
            postgres::Client::connect(&with_db(url, &id), postgres::NoTls).expect("connect");
        db.batch_execute(
            "CREATE TABLE ledger (id int PRIMARY KEY, note text); INSERT INTO ledger VALUES (1, 'canary')",
        )
        .expect("the canary ledger");
        PgCanary {
            url: url.to_string(),
            id,
            admin,
        }
    }

    fn strings(&mut self, sql: &str) -> Vec<String> {
        let mut v: Vec<String> = self
            .admin
            .query(sql, &[])
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        v.sort();
        v
    }

    pub fn snapshot(&mut self) -> PgSnapshot {
        let id = self.id.clone();
        let mut db =
            postgres::Client::connect(&with_db(&self.url, &id), postgres::NoTls).expect("connect");
        let ledger = db
            .query(
                "SELECT id::text || ':' || note FROM ledger ORDER BY id",
                &[],
            )
            .expect("read the ledger")
            .iter()
            .map(|r| r.get(0))
            .collect();
        PgSnapshot {
            databases: self.strings(&format!(
                "SELECT datname::text || ' ' || coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database WHERE datname LIKE '{id}%'"
            )),
            roles: self.strings(&format!(
                "SELECT rolname::text || ' ' || rolsuper || rolcreaterole || rolcreatedb || rolcanlogin FROM pg_roles WHERE rolname LIKE '{id}%'"
            )),
            superusers: self.strings("SELECT rolname::text FROM pg_roles WHERE rolsuper"),
            ledger,
            file_settings: self.strings(
                "SELECT coalesce(sourcefile, '') || ':' || name || '=' || coalesce(setting, '') FROM pg_file_settings",
            ),
            role_settings: self.strings(
                "SELECT setdatabase::text || ' ' || setrole::text || ' ' || array_to_string(setconfig, ',') FROM pg_db_role_setting",
            ),
            settings: self.strings(
                "SELECT name || '=' || setting FROM pg_settings WHERE name IN ('work_mem', 'statement_timeout', 'lock_timeout', 'max_connections', 'log_statement', 'shared_preload_libraries')",
            ),
        }
    }

    pub fn url_of_canary(&self) -> String {
        with_db(&self.url, &self.id)
    }
}

impl Drop for PgCanary {
    fn drop(&mut self) {
        let id = &self.id;
        for sql in [
            format!("DROP DATABASE IF EXISTS {id} WITH (FORCE)"),
            format!("DROP DATABASE IF EXISTS {id}_evil WITH (FORCE)"),
            format!("DROP ROLE IF EXISTS {id}"),
            format!("DROP ROLE IF EXISTS {id}_evil"),
        ] {
            let _ = self.admin.batch_execute(&sql);
        }
    }
}

pub struct MyCanary {
    pub id: String,
    admin: mysql::Conn,
}

#[derive(Debug, PartialEq, Eq)]
pub struct MySnapshot {
    pub databases: Vec<String>,
    pub accounts: Vec<String>,
    pub super_accounts: Vec<String>,
    pub ledger: Vec<String>,
    pub globals: Vec<String>,
}

impl MyCanary {
    pub fn new(url: &str) -> MyCanary {
        let id = unique();
        let mut admin =
            mysql::Conn::new(mysql::Opts::from_url(url).expect("url")).expect("connect");
        admin
            .query_drop(format!(
                "CREATE DATABASE {id}; CREATE TABLE {id}.ledger (id int PRIMARY KEY, note text); \
                 INSERT INTO {id}.ledger VALUES (1, 'canary'); CREATE USER '{id}'@'localhost' IDENTIFIED BY 'canary'"
            ))
            .expect("create the canary database and account");
        MyCanary { id, admin }
    }

    fn strings(&mut self, sql: &str) -> Vec<String> {
        let mut v: Vec<String> = self
            .admin
            .query(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        v.sort();
        v
    }

    pub fn snapshot(&mut self) -> MySnapshot {
        let id = self.id.clone();
        MySnapshot {
            databases: self.strings(&format!(
                "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '{id}%'"
            )),
            accounts: self.strings(&format!(
                "SELECT concat(User, '@', Host) FROM mysql.user WHERE User LIKE '{id}%'"
            )),
            super_accounts: self.strings(
                "SELECT concat(User, '@', Host) FROM mysql.user WHERE Super_priv = 'Y' OR File_priv = 'Y'",
            ),
            ledger: self.strings(&format!(
                "SELECT concat(id, ':', note) FROM {id}.ledger"
            )),
            globals: self.strings(
                "SELECT concat(VARIABLE_NAME, '=', coalesce(VARIABLE_VALUE, '')) FROM information_schema.GLOBAL_VARIABLES WHERE VARIABLE_NAME NOT LIKE 'GTID%'",
            ),
        }
    }
}

impl Drop for MyCanary {
    fn drop(&mut self) {
        let id = &self.id;
        let _ = self.admin.query_drop(format!(
            "DROP DATABASE IF EXISTS {id}; DROP USER IF EXISTS '{id}'@'localhost'; DROP USER IF EXISTS '{id}_evil'@'%'; DROP DATABASE IF EXISTS {id}_evil"
        ));
    }
}
