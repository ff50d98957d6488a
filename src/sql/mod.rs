//! Migration SQL: splitting, lexing, parsing and classifying statements,
//! the lock table, and the per-file analysis the MG rules read. Organised so
//! other commands (`platcheck verify`) can reuse the splitter, the
//! classifier and the lock table without the rule engine.
pub mod analysis;
pub mod classify;
pub mod context;
pub mod effects;
mod effects_alter;
mod effects_drop;
pub mod effects_my;
pub mod effects_toast;
pub mod history;
mod judge;
pub mod lexer;
pub mod locks;
pub mod ops;
pub mod parse;
pub mod pg_proc;
pub mod replay;
pub mod schema;
mod schema_fk;
pub mod schema_objects;
pub mod split;
pub mod timezone;
pub mod types;
pub mod verify;

/// The SQL dialect a migration is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    Postgres,
    MySql,
    MariaDb,
}

impl Dialect {
    /// From `sql.dialect` or a Cluster's `engine.product`.
    pub fn from_product(p: &str) -> Option<Dialect> {
        match p {
            "postgresql" | "postgres" | "aurora-postgresql" | "alloydb" | "cloud-sql"
            | "yugabytedb" | "cockroachdb" => Some(Dialect::Postgres),
            "mysql" | "aurora-mysql" | "vitess" | "tidb" => Some(Dialect::MySql),
            "mariadb" => Some(Dialect::MariaDb),
            _ => None,
        }
    }
    pub fn is_mysql(self) -> bool {
        matches!(self, Dialect::MySql | Dialect::MariaDb)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Postgres => "PostgreSQL",
            Dialect::MySql => "MySQL",
            Dialect::MariaDb => "MariaDB",
        }
    }
}

/// An engine version, compared numerically part by part (`8.0.29`, `16.4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// Lenient: `"15"`, `"16.4"`, `"8.0.29"`, `"10.11.6-MariaDB"`; unreadable parts are 0.
    pub fn parse(s: &str) -> Option<Version> {
        let mut parts = s
            .trim()
            .split(|c: char| !c.is_ascii_digit())
            .filter(|p| !p.is_empty())
            .map(|p| p.parse::<u32>().unwrap_or(0));
        let major = parts.next()?;
        Some(Version(
            major,
            parts.next().unwrap_or(0),
            parts.next().unwrap_or(0),
        ))
    }
    pub fn at_least(self, major: u32, minor: u32, patch: u32) -> bool {
        self >= Version(major, minor, patch)
    }
}

/// The newest patch of each MySQL and MariaDB release series platcheck's
/// lock table knows: a version written without its patch (`"8.0"`) is
/// judged as this one (the rules' version thresholds are patch releases:
/// INSTANT ADD COLUMN from 8.0.12, anywhere from 8.0.29).
pub const LATEST_PATCH: &[(Dialect, u32, u32, u32)] = &[
    (Dialect::MySql, 5, 7, 44),
    (Dialect::MySql, 8, 0, 40),
    (Dialect::MySql, 8, 4, 3),
    (Dialect::MySql, 9, 1, 0),
    (Dialect::MariaDb, 10, 5, 27),
    (Dialect::MariaDb, 10, 6, 20),
    (Dialect::MariaDb, 10, 11, 10),
    (Dialect::MariaDb, 11, 4, 4),
];

impl Version {
    /// A configured version for `dialect`: MySQL/MariaDB's `"8.0"` (no
    /// patch) is the newest 8.0 patch in `LATEST_PATCH`; the flag says the
    /// patch was filled in that way.
    pub fn configured(s: &str, dialect: Dialect) -> Option<(Version, bool)> {
        let v = Version::parse(s)?;
        let head = s
            .trim()
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()?;
        let parts = head.split('.').filter(|p| !p.is_empty()).count();
        if dialect.is_mysql() && parts == 2 {
            let mine = if dialect == Dialect::MariaDb {
                Dialect::MariaDb
            } else {
                Dialect::MySql
            };
            if let Some((_, a, b, c)) = LATEST_PATCH
                .iter()
                .find(|(d, a, b, _)| *d == mine && *a == v.0 && *b == v.1)
            {
                return Some((Version(*a, *b, *c), true));
            }
        }
        Some((v, false))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version(m, 0, 0) => write!(f, "{m}"),
            Version(m, n, 0) => write!(f, "{m}.{n}"),
            Version(m, n, p) => write!(f, "{m}.{n}.{p}"),
        }
    }
}

#[cfg(test)]
mod version_tests {
    use super::*;

    #[test]
    fn a_minor_version_is_its_newest_known_patch_on_mysql_only() {
        assert_eq!(
            Version::configured("8.0", Dialect::MySql),
            Some((Version(8, 0, 40), true))
        );
        assert_eq!(
            Version::configured("8.0.28", Dialect::MySql),
            Some((Version(8, 0, 28), false))
        );
        assert_eq!(
            Version::configured("10.11", Dialect::MariaDb),
            Some((Version(10, 11, 10), true))
        );
        assert_eq!(
            Version::configured("16.4", Dialect::Postgres),
            Some((Version(16, 4, 0), false))
        );
    }
}
