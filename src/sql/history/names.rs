//! File names: the dialect a name says a file is for (`.postgres.up.sql`,
//! Synapse's `.sql.sqlite`), schema dumps, version directories, sidecar
//! files, and the natural order of names (`v0.10` after `v0.9`).
use std::cmp::Ordering;

/// The database a migration file says it is for, in the words migration
/// tools use (popx's `.cockroach.`, Synapse's `.sql.postgres`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    Postgres,
    Cockroach,
    Yugabyte,
    MySql,
    Sqlite,
    SqlServer,
    Oracle,
    ClickHouse,
}

impl Flavor {
    pub fn parse(token: &str) -> Option<Flavor> {
        Some(match token.to_ascii_lowercase().as_str() {
            "postgres" | "postgresql" | "pg" => Flavor::Postgres,
            "cockroach" | "cockroachdb" | "crdb" => Flavor::Cockroach,
            "yugabyte" | "yugabytedb" => Flavor::Yugabyte,
            "mysql" | "mariadb" => Flavor::MySql,
            "sqlite" | "sqlite3" => Flavor::Sqlite,
            "mssql" | "sqlserver" => Flavor::SqlServer,
            "oracle" => Flavor::Oracle,
            "clickhouse" => Flavor::ClickHouse,
            _ => return None,
        })
    }

    /// The database of a Cluster's `engine.product` or `sql.dialect`.
    pub fn of_product(product: &str) -> Flavor {
        match product {
            "cockroachdb" => Flavor::Cockroach,
            "yugabytedb" => Flavor::Yugabyte,
            "mysql" | "aurora-mysql" | "vitess" | "tidb" | "mariadb" => Flavor::MySql,
            _ => Flavor::Postgres,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Flavor::Postgres => "PostgreSQL",
            Flavor::Cockroach => "CockroachDB",
            Flavor::Yugabyte => "YugabyteDB",
            Flavor::MySql => "MySQL/MariaDB",
            Flavor::Sqlite => "SQLite",
            Flavor::SqlServer => "SQL Server",
            Flavor::Oracle => "Oracle",
            Flavor::ClickHouse => "ClickHouse",
        }
    }

    /// Whether platcheck has a dialect for it.
    pub fn analysable(self) -> bool {
        matches!(
            self,
            Flavor::Postgres | Flavor::Cockroach | Flavor::Yugabyte | Flavor::MySql
        )
    }

    /// How well a file for `file` fits a directory running on `self`, as
    /// popx ranks it: the exact database 2, a fallback (YugabyteDB runs
    /// PostgreSQL files) 1; `None` when the file is for another database.
    /// A file without a dialect token fits everything, at rank 0.
    pub fn rank(self, file: Flavor) -> Option<u8> {
        if file == self {
            Some(2)
        } else if self == Flavor::Yugabyte && file == Flavor::Postgres {
            Some(1)
        } else {
            None
        }
    }
}

/// Splits the dialect token off a file name: `1_x.postgres.up.sql` →
/// (`1_x.up.sql`, PostgreSQL), `x.sql.sqlite` → (`x.sql`, SQLite),
/// `2_y.mysql.autocommit.down.sql` → (`2_y.autocommit.down.sql`, MySQL).
pub fn split_flavor(name: &str) -> (String, Option<Flavor>) {
    // Synapse: `<name>.sql.<dialect>`.
    if let Some((stem, tok)) = name.rsplit_once('.')
        && stem.to_ascii_lowercase().ends_with(".sql")
        && let Some(f) = Flavor::parse(tok)
    {
        return (stem.to_string(), Some(f));
    }
    let parts: Vec<&str> = name.split('.').collect();
    if parts.len() < 3 || !parts[parts.len() - 1].eq_ignore_ascii_case("sql") {
        return (name.to_string(), None);
    }
    // The token sits before `sql`, `up.sql`/`down.sql`, or `autocommit.up.sql`.
    let mut at = parts.len() - 2;
    if matches!(parts[at].to_ascii_lowercase().as_str(), "up" | "down") && at > 1 {
        at -= 1;
        if parts[at].eq_ignore_ascii_case("autocommit") && at > 1 {
            at -= 1;
        }
    }
    match Flavor::parse(parts[at]) {
        Some(f) if at >= 1 => {
            let mut rest = parts.clone();
            rest.remove(at);
            (rest.join("."), Some(f))
        }
        _ => (name.to_string(), None),
    }
}

/// A full schema dump rather than a migration: `schema.sql`,
/// `structure.sql`, `<name>_schema.sql` (never a numbered migration file).
pub fn is_dump(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    if n == "schema.sql" || n == "structure.sql" {
        return true;
    }
    n.ends_with("_schema.sql")
        && !n.starts_with(|c: char| c.is_ascii_digit())
        && !super::flyway::is_flyway_name(name)
}

/// A directory named like a version: `v0.4`, `12`, `1.2.3`, `V2`.
pub fn is_version_dir(name: &str) -> bool {
    let n = name.strip_prefix(['v', 'V']).unwrap_or(name);
    !n.is_empty()
        && n.starts_with(|c: char| c.is_ascii_digit())
        && n.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '_')
}

/// Files the tools read beside the SQL: sqitch's plan, Flyway's script
/// configuration, diesel's per-migration metadata.
pub fn is_sidecar(name: &str) -> bool {
    name == "sqitch.plan" || name == "metadata.toml" || name.ends_with(".sql.conf")
}

/// A tool's project configuration, which applies to every migrations
/// directory below it (Flyway's `flyway.conf` / `flyway.toml`).
pub fn is_project_config(name: &str) -> bool {
    matches!(name, "flyway.conf" | "flyway.toml")
}

/// Compares names the way people number them: digit runs by value, so
/// `9_x` < `10_x` and `v0.9` < `v0.10`; otherwise byte order.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let dx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let dy = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let nx = trim_zeros(&x[..dx]);
                let ny = trim_zeros(&y[..dy]);
                let o = nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|&&c| c == b'0').count();
    &d[z.min(d.len().saturating_sub(1))..]
}

/// The leading digits of a name (`20240101_x.sql` → `20240101`).
pub fn leading_digits(name: &str) -> &str {
    let n = name.bytes().take_while(u8::is_ascii_digit).count();
    &name[..n]
}

/// The lines of a text with the byte offset each starts at (no line ending).
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |l| {
        let start = at;
        at += l.len();
        (start, l.trim_end_matches(['\n', '\r']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_tokens_in_names() {
        let f = |n| split_flavor(n);
        assert_eq!(
            f("1_x.postgres.up.sql"),
            ("1_x.up.sql".into(), Some(Flavor::Postgres))
        );
        assert_eq!(
            f("2_y.mysql.autocommit.down.sql"),
            ("2_y.autocommit.down.sql".into(), Some(Flavor::MySql))
        );
        assert_eq!(f("x.sql.sqlite"), ("x.sql".into(), Some(Flavor::Sqlite)));
        assert_eq!(
            f("x.sql.postgres"),
            ("x.sql".into(), Some(Flavor::Postgres))
        );
        assert_eq!(
            f("9_testdata.mysql.sql"),
            ("9_testdata.sql".into(), Some(Flavor::MySql))
        );
        assert_eq!(f("1_x.up.sql"), ("1_x.up.sql".into(), None));
        assert_eq!(f("postgres.sql"), ("postgres.sql".into(), None));
        assert_eq!(f("1_x.v2.up.sql"), ("1_x.v2.up.sql".into(), None));
    }

    #[test]
    fn natural_order() {
        assert_eq!(natural_cmp("V9__a", "V10__a"), Ordering::Less);
        assert_eq!(natural_cmp("v0.10/x.sql", "v0.9/x.sql"), Ordering::Greater);
        assert_eq!(natural_cmp("0001_a", "0002_a"), Ordering::Less);
        assert_eq!(natural_cmp("a", "b"), Ordering::Less);
    }

    #[test]
    fn dumps_and_version_dirs() {
        assert!(is_dump("schema.sql"));
        assert!(is_dump("structure.sql"));
        assert!(is_dump("cadence_schema.sql"));
        assert!(!is_dump("0001_initial_schema.sql"));
        assert!(!is_dump("V1__initial_schema.sql"));
        assert!(is_version_dir("v0.4"));
        assert!(is_version_dir("12"));
        assert!(!is_version_dir("versions"));
        assert!(!is_version_dir("2019-02-26-002946_create_user"));
    }
}
