//! The database servers the oracle needs: the local ones (PLATCHECK_PG_URL,
//! PLATCHECK_MYSQL_URL, defaulting to this machine's services), else a
//! throwaway instance started by verify's own ephemeral-server code (what
//! `platcheck verify` does without --database-url). A watchdog stops the
//! instance and removes its directory when the test process exits,
//! however it exits.
#![allow(dead_code)]
use platcheck::sql::verify::ephemeral::Server as Throwaway;
use platcheck::sql::verify::ephemeral_bins::Kind;

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

impl Server {
    /// The URL, or `None` once the reason to skip is printed: the one way
    /// a test says why it did not run.
    pub fn url(self) -> Option<String> {
        match self {
            Server::Url(u) => Some(u),
            Server::Skip(why) => {
                println!("skipped: {why}");
                None
            }
        }
    }
}

/// `postgres()` as a URL (see `Server::url`).
pub fn postgres_url() -> Option<String> {
    postgres().url()
}

/// `mariadb()` as a URL (see `Server::url`).
pub fn mariadb_url() -> Option<String> {
    mariadb().url()
}

/// A plain client of `postgres()` (see `Server::url`).
pub fn postgres_client() -> Option<postgres::Client> {
    let url = postgres_url()?;
    Some(postgres::Client::connect(&url, postgres::NoTls).expect("connect to PostgreSQL"))
}

fn skip_requested() -> Option<Server> {
    (std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0"))
        .then(|| Server::Skip("PLATCHECK_DB_TESTS=0: database tests skipped".into()))
}

/// A throwaway server started by verify's own code (the product's default
/// when no --database-url is given), kept for the whole test process and
/// removed by a watchdog once it exits.
fn throwaway(kind: Kind) -> Result<String, String> {
    let server = Throwaway::start(kind, None).map_err(|e| e.0)?;
    let url = server.url().to_string();
    server.keep_until_exit();
    Ok(url)
}

fn start_pg(_url: &str) -> Result<String, String> {
    throwaway(Kind::Postgres)
}

fn start_mariadb(_url: &str) -> Result<String, String> {
    throwaway(Kind::MariaDb)
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
    start: fn(&str) -> Result<String, String>,
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
    match start(&url).and_then(|u| answers(&u).map(|()| u)) {
        Ok(u) => Server::Url(u),
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
