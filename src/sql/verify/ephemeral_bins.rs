//! Where the server binaries of an ephemeral server are, and what to say
//! when they are not there.
use super::VerifyError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The server kind `--server` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Postgres,
    MariaDb,
    MySql,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s.to_ascii_lowercase().as_str() {
            "postgres" | "postgresql" | "pg" => Some(Kind::Postgres),
            "mariadb" => Some(Kind::MariaDb),
            "mysql" => Some(Kind::MySql),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Postgres => "postgres",
            Kind::MariaDb => "mariadb",
            Kind::MySql => "mysql",
        }
    }
}

/// The binaries one kind needs: `[initialiser, server]`.
#[derive(Clone, Debug)]
pub struct Bins {
    pub init: PathBuf,
    pub server: PathBuf,
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn in_dir(dir: &Path, names: &[&str]) -> Option<PathBuf> {
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// The newest `/usr/lib/postgresql/<version>/bin` holding both binaries.
fn debian_pg() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("postgres").is_file()).then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

fn pg_config_bindir() -> Option<PathBuf> {
    let out = Command::new("pg_config").arg("--bindir").output().ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn missing(kind: Kind, what: &str, looked: &str) -> VerifyError {
    let install = match kind {
        Kind::Postgres => {
            "PostgreSQL's server (Debian/Ubuntu: `apt-get install postgresql`; Fedora: `dnf install postgresql-server`; macOS: `brew install postgresql`)"
        }
        Kind::MariaDb => {
            "MariaDB's server (Debian/Ubuntu: `apt-get install mariadb-server`; Fedora: `dnf install mariadb-server`; macOS: `brew install mariadb`)"
        }
        Kind::MySql => {
            "MySQL's server (`apt-get install mysql-server` from MySQL's own repository, or MySQL's tarball)"
        }
    };
    VerifyError(format!(
        "verify starts its own throwaway {} server when no --database-url is given, and needs {what}: not found ({looked}). Install {install}, point --engine-bin at the directory holding the binaries, or give --database-url",
        kind.name()
    ))
}

pub fn find(kind: Kind, engine_bin: Option<&Path>) -> Result<Bins, VerifyError> {
    match kind {
        Kind::Postgres => {
            let dir = match engine_bin {
                Some(d) => Some(d.to_path_buf()),
                None => debian_pg()
                    .or_else(|| on_path("initdb").and_then(|p| p.parent().map(Path::to_path_buf)))
                    .or_else(pg_config_bindir),
            };
            let looked = engine_bin.map_or_else(
                || "in /usr/lib/postgresql/*/bin, on PATH, or at pg_config --bindir".to_string(),
                |d| format!("in {}", d.display()),
            );
            let dir = dir.ok_or_else(|| missing(kind, "initdb and postgres", &looked))?;
            Ok(Bins {
                init: in_dir(&dir, &["initdb"]).ok_or_else(|| missing(kind, "initdb", &looked))?,
                server: in_dir(&dir, &["postgres"])
                    .ok_or_else(|| missing(kind, "postgres", &looked))?,
            })
        }
        Kind::MariaDb | Kind::MySql => {
            let (inits, servers): (&[&str], &[&str]) = if kind == Kind::MariaDb {
                (
                    &["mariadb-install-db", "mysql_install_db"],
                    &["mariadbd", "mysqld"],
                )
            } else {
                (&["mysqld"], &["mysqld"])
            };
            let dirs: Vec<PathBuf> = match engine_bin {
                Some(d) => vec![d.to_path_buf(), d.join("../sbin"), d.join("../bin")],
                None => {
                    let mut v: Vec<PathBuf> = std::env::var_os("PATH")
                        .map(|p| std::env::split_paths(&p).collect())
                        .unwrap_or_default();
                    v.extend(["/usr/sbin", "/usr/bin", "/usr/local/mysql/bin"].map(PathBuf::from));
                    v
                }
            };
            let looked = engine_bin.map_or_else(
                || "on PATH, in /usr/sbin or /usr/bin".to_string(),
                |d| format!("in {}", d.display()),
            );
            let first = |names: &[&str]| dirs.iter().find_map(|d| in_dir(d, names));
            let bins = Bins {
                init: first(inits).ok_or_else(|| missing(kind, &inits.join(" or "), &looked))?,
                server: first(servers)
                    .ok_or_else(|| missing(kind, &servers.join(" or "), &looked))?,
            };
            if kind == Kind::MySql && is_mariadb(&bins.server) {
                return Err(VerifyError(format!(
                    "--server mysql: {} is MariaDB's server; use --server mariadb, or point --engine-bin at a MySQL installation",
                    bins.server.display()
                )));
            }
            Ok(bins)
        }
    }
}

fn is_mariadb(server: &Path) -> bool {
    Command::new(server)
        .arg("--version")
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .to_ascii_lowercase()
                .contains("mariadb")
        })
}
