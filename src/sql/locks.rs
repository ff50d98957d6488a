//! The lock table: what each DDL form locks, rewrites and scans, for
//! PostgreSQL (`locks/pg.csv`) and MySQL/MariaDB (`locks/mysql.csv`). The
//! facts live only in those two files, encoded from the research tables in
//! the reference (`pg_locks.csv`, `mysql_online_ddl.csv`); rules look rows up
//! by key and never restate a lock mode themselves.
use super::{Dialect, Version};
use std::collections::HashMap;
use std::sync::OnceLock;

const PG_CSV: &str = include_str!("locks/pg.csv");
const MYSQL_CSV: &str = include_str!("locks/mysql.csv");

/// PostgreSQL table-level lock modes, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PgMode {
    None,
    AccessShare,
    RowShare,
    RowExclusive,
    ShareUpdateExclusive,
    Share,
    ShareRowExclusive,
    Exclusive,
    AccessExclusive,
}

impl PgMode {
    pub fn parse(s: &str) -> PgMode {
        let key: String = s
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect::<String>()
            .to_ascii_lowercase();
        match key.as_str() {
            "accessshare" => PgMode::AccessShare,
            "rowshare" => PgMode::RowShare,
            "rowexclusive" => PgMode::RowExclusive,
            "shareupdateexclusive" => PgMode::ShareUpdateExclusive,
            "share" => PgMode::Share,
            "sharerowexclusive" => PgMode::ShareRowExclusive,
            "exclusive" => PgMode::Exclusive,
            "accessexclusive" => PgMode::AccessExclusive,
            _ => PgMode::None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            PgMode::None => "NONE",
            PgMode::AccessShare => "ACCESS SHARE",
            PgMode::RowShare => "ROW SHARE",
            PgMode::RowExclusive => "ROW EXCLUSIVE",
            PgMode::ShareUpdateExclusive => "SHARE UPDATE EXCLUSIVE",
            PgMode::Share => "SHARE",
            PgMode::ShareRowExclusive => "SHARE ROW EXCLUSIVE",
            PgMode::Exclusive => "EXCLUSIVE",
            PgMode::AccessExclusive => "ACCESS EXCLUSIVE",
        }
    }
    /// Plain SELECTs wait behind this lock.
    pub fn blocks_reads(self) -> bool {
        self == PgMode::AccessExclusive
    }
    /// INSERT/UPDATE/DELETE wait behind this lock.
    pub fn blocks_writes(self) -> bool {
        self >= PgMode::Share
    }
    pub fn blocks(self) -> &'static str {
        if self.blocks_reads() {
            "reads and writes"
        } else if self.blocks_writes() {
            "writes"
        } else {
            "no reads or writes"
        }
    }
}

#[derive(Debug, Clone)]
pub struct PgRow {
    pub key: String,
    pub statement: String,
    pub lock: PgMode,
    pub other_lock: PgMode,
    /// Which other relation `other_lock` is on: referenced, parent, partition, index.
    pub other_relation: String,
    pub rewrite: bool,
    pub scan: bool,
    pub in_tx: bool,
    pub min_version: Option<Version>,
    /// Versions below this rewrite even though `rewrite` says no.
    pub rewrite_before: Option<Version>,
    pub verified_pg15: String,
    /// The server refuses the form (`lock` is `Refused`); `notes` says why.
    pub refused: bool,
    pub notes: String,
    /// A script whose statements show the row on a real server (setup
    /// first); replayed by the verify oracle test. Empty: not runnable on
    /// the servers the tests use (e.g. a PG 18 form).
    pub example: String,
    /// What the row does to its table's TOAST table (`toast` column).
    pub toast: Toast,
    /// The mode the TOAST table's index gets where `toast` says the TOAST
    /// table is locked (`toast_index` column; `None`: left alone).
    pub toast_index: PgMode,
}

/// A row's lock on the TOAST table of the relation it locks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toast {
    /// Not locked.
    No,
    /// Locked with the table's own mode (a rewrite, TRUNCATE, DROP …).
    Same,
    /// ROW EXCLUSIVE, only if a row written holds a long value.
    IfWritten,
}

impl PgRow {
    pub fn rewrites(&self, v: Version) -> bool {
        self.rewrite || self.rewrite_before.is_some_and(|b| v < b)
    }
}

/// What MySQL/MariaDB does for one ALTER form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Algorithm {
    Instant,
    Nocopy,
    Inplace,
    Copy,
}

impl Algorithm {
    pub fn parse(s: &str) -> Option<Algorithm> {
        match s.trim().to_ascii_uppercase().as_str() {
            "INSTANT" => Some(Algorithm::Instant),
            "NOCOPY" => Some(Algorithm::Nocopy),
            "INPLACE" => Some(Algorithm::Inplace),
            "COPY" => Some(Algorithm::Copy),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Instant => "INSTANT",
            Algorithm::Nocopy => "NOCOPY",
            Algorithm::Inplace => "INPLACE",
            Algorithm::Copy => "COPY",
        }
    }
}

#[derive(Debug, Clone)]
pub struct MyRow {
    pub key: String,
    pub operation: String,
    pub instant_since: Option<Version>,
    pub inplace: bool,
    pub rebuild: bool,
    pub concurrent_dml: bool,
    pub mariadb_algorithm: Option<Algorithm>,
    pub mariadb_lock_none: bool,
    /// MariaDB accepts only LOCK=EXCLUSIVE (reads wait too): `exclusive`
    /// in the `mariadb_lock_none` column.
    pub mariadb_lock_exclusive: bool,
    /// As `PgRow::example`, for MariaDB.
    pub example: String,
}

/// The server's best algorithm and whether DML keeps running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MyPlan {
    pub algorithm: Algorithm,
    pub concurrent_dml: bool,
    pub rebuild: bool,
    /// Reads wait too (LOCK=EXCLUSIVE is the least the server accepts).
    pub exclusive: bool,
}

impl MyRow {
    pub fn plan(&self, dialect: Dialect, v: Version) -> MyPlan {
        if dialect == Dialect::MariaDb {
            let algorithm = self.mariadb_algorithm.unwrap_or(if self.inplace {
                Algorithm::Inplace
            } else {
                Algorithm::Copy
            });
            return MyPlan {
                algorithm,
                concurrent_dml: self.mariadb_lock_none,
                rebuild: self.rebuild && algorithm >= Algorithm::Inplace,
                exclusive: self.mariadb_lock_exclusive,
            };
        }
        let algorithm = match self.instant_since {
            Some(since) if v >= since => Algorithm::Instant,
            _ if self.inplace => Algorithm::Inplace,
            _ => Algorithm::Copy,
        };
        MyPlan {
            algorithm,
            concurrent_dml: self.concurrent_dml || algorithm == Algorithm::Instant,
            rebuild: self.rebuild && algorithm != Algorithm::Instant,
            exclusive: false,
        }
    }
}

fn yes(s: &str) -> bool {
    s.trim().to_ascii_lowercase().starts_with("yes")
}

/// One CSV line: fields split at commas, a field in double quotes may hold
/// commas (`""` is a quote). The `example` column is SQL and needs this.
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

fn rows(csv: &str) -> impl Iterator<Item = Vec<String>> {
    csv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(fields)
}

fn pg_table() -> &'static HashMap<String, PgRow> {
    static T: OnceLock<HashMap<String, PgRow>> = OnceLock::new();
    T.get_or_init(|| {
        rows(PG_CSV)
            .map(|f| {
                let get = |i: usize| f.get(i).map_or("", String::as_str);
                let row = PgRow {
                    key: get(0).into(),
                    statement: get(1).into(),
                    lock: PgMode::parse(get(2)),
                    other_lock: PgMode::parse(get(3)),
                    other_relation: get(4).into(),
                    rewrite: yes(get(5)),
                    scan: yes(get(6)),
                    in_tx: yes(get(7)),
                    min_version: Version::parse(get(8)),
                    rewrite_before: Version::parse(get(9)),
                    verified_pg15: get(10).into(),
                    refused: get(2).eq_ignore_ascii_case("refused"),
                    notes: get(11).into(),
                    example: get(12).into(),
                    toast: match get(13).trim() {
                        "yes" => Toast::Same,
                        "if written" => Toast::IfWritten,
                        _ => Toast::No,
                    },
                    toast_index: PgMode::parse(get(14)),
                };
                (row.key.clone(), row)
            })
            .collect()
    })
}

fn my_table() -> &'static HashMap<String, MyRow> {
    static T: OnceLock<HashMap<String, MyRow>> = OnceLock::new();
    T.get_or_init(|| {
        rows(MYSQL_CSV)
            .map(|f| {
                let get = |i: usize| f.get(i).map_or("", String::as_str);
                let row = MyRow {
                    key: get(0).into(),
                    operation: get(1).into(),
                    instant_since: Version::parse(get(2)),
                    inplace: yes(get(3)),
                    rebuild: yes(get(4)),
                    concurrent_dml: yes(get(5)),
                    mariadb_algorithm: Algorithm::parse(get(6)),
                    mariadb_lock_none: yes(get(7)),
                    mariadb_lock_exclusive: get(7).trim().eq_ignore_ascii_case("exclusive"),
                    example: get(9).into(),
                };
                (row.key.clone(), row)
            })
            .collect()
    })
}

/// The PostgreSQL row for `key`. Keys are compile-time constants of the
/// analysis; a test checks each one exists, and an unknown key falls back to
/// the most conservative row (ACCESS EXCLUSIVE) rather than panicking.
pub fn pg(key: &str) -> &'static PgRow {
    let t = pg_table();
    t.get(key).unwrap_or_else(|| &t["other_alter"])
}

pub fn mysql(key: &str) -> &'static MyRow {
    let t = my_table();
    t.get(key).unwrap_or_else(|| &t["type_change"])
}

/// Every PostgreSQL row.
pub fn pg_rows() -> impl Iterator<Item = &'static PgRow> {
    pg_table().values()
}

/// Every MySQL/MariaDB row.
pub fn mysql_rows() -> impl Iterator<Item = &'static MyRow> {
    my_table().values()
}

pub fn pg_has(key: &str) -> bool {
    pg_table().contains_key(key)
}
pub fn mysql_has(key: &str) -> bool {
    my_table().contains_key(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versioned_rows() {
        let r = pg("add_column_default");
        assert!(r.rewrites(Version(10, 0, 0)));
        assert!(!r.rewrites(Version(15, 0, 0)));
        assert_eq!(pg("create_index").lock, PgMode::Share);
        assert!(!pg("create_index_concurrently").in_tx);
        let add = mysql("add_column_positioned");
        assert_eq!(
            add.plan(Dialect::MySql, Version(8, 0, 28)).algorithm,
            Algorithm::Inplace
        );
        assert_eq!(
            add.plan(Dialect::MySql, Version(8, 0, 29)).algorithm,
            Algorithm::Instant
        );
        assert_eq!(
            mysql("type_change").plan(Dialect::MySql, Version(8, 0, 35)),
            MyPlan {
                algorithm: Algorithm::Copy,
                concurrent_dml: false,
                rebuild: true,
                exclusive: false
            }
        );
    }

    #[test]
    fn quoted_fields_keep_their_commas() {
        let line = "a,\"CREATE TABLE t (a int, b int); SELECT \"\"x\"\"\",c";
        assert_eq!(
            fields(line),
            vec!["a", "CREATE TABLE t (a int, b int); SELECT \"x\"", "c"]
        );
    }

    #[test]
    fn every_row_has_a_known_mode() {
        for r in pg_table()
            .values()
            .filter(|r| r.key != "alter_type_add_value" && !r.refused)
        {
            assert_ne!(r.lock, PgMode::None, "{}", r.key);
        }
    }
}
