//! `platcheck verify`: replay migrations against a real server and compare
//! what it did with what the lock table predicted. Every disagreement is an
//! MG900 finding; the test suite uses the same code as an oracle for
//! `locks/pg.csv` and `locks/mysql.csv`.
//!
//! The prediction side reuses `sql::analysis` unchanged (splitter,
//! classifier, lock table): this module never restates a lock fact.
mod bookkeeping;
pub mod command;
pub mod compare;
pub mod ephemeral;
pub mod ephemeral_bins;
pub mod gate;
mod gate_my;
mod gate_pg;
#[cfg(test)]
mod gate_tests;
mod history_scripts;
pub mod limits;
mod lines;
pub mod my;
pub mod pg;
mod pg_exec;
mod pg_observe;
mod pg_pool;
mod pg_scans;
pub mod pg_watch;
mod predict;
pub mod refusal;
pub mod render;
pub mod scratch;
mod scratch_my;
mod scratch_pg;
pub mod signals;

use super::analysis::{self, FileAnalysis, Stmt};
use super::context::FileCtx;
use super::schema::Model;
use super::{Dialect, Version};
pub use lines::Lines;
pub use predict::predict;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One relation and the strongest lock mode on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockObs {
    pub relation: String,
    pub mode: String,
}

/// What the static analysis expects of one statement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prediction {
    /// Rows of the lock table the statement triggers.
    pub keys: Vec<String>,
    /// PostgreSQL: strongest mode per relation.
    pub locks: Vec<LockObs>,
    /// PostgreSQL: locks taken only if rows reach the relation (foreign-key
    /// checks and actions, partitions): at most this mode, or none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub maybe: Vec<LockObs>,
    pub rewrite: bool,
    /// MySQL/MariaDB: the algorithm the server would pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
    /// MySQL/MariaDB: concurrent DML allowed (LOCK=NONE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock_none: Option<bool>,
    /// MySQL/MariaDB: only LOCK=EXCLUSIVE (reads wait too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lock_exclusive: bool,
    /// The server refuses the statement (why, from the lock table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The relations in `locks` that are indexes, views or sequences.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secondary: Vec<String>,
    /// PostgreSQL: tables the statement reads in full (the lock table's
    /// scanning rows), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scans: Vec<String>,
    /// PostgreSQL: tables a row statement's query plan reads in full or not
    /// (its WHERE and the indexes decide, not the lock table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub maybe_scans: Vec<String>,
}

/// What the server did with one statement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    /// PostgreSQL: strongest mode per relation that existed before the
    /// statement (tables, partitioned tables, materialized views).
    #[serde(default)]
    pub locks: Vec<LockObs>,
    /// A table's relfilenode changed (PostgreSQL), or the InnoDB table id
    /// changed on the probe copy (MariaDB/MySQL). `None`: not observable.
    #[serde(default)]
    pub rewrite: Option<bool>,
    /// Indexes whose relfilenode changed (PostgreSQL; informative).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes_rebuilt: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_none: Option<bool>,
    /// MySQL/MariaDB: the server accepted only LOCK=EXCLUSIVE.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lock_exclusive: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// The server refused the statement (its message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why, when the run can tell (`refusal::explain`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<refusal::Refusal>,
    /// Locks on indexes, views and sequences the prediction named were
    /// looked for (recordings made before verify did so lack this).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secondary_observed: bool,
    /// TOAST tables were looked at (`pg_toast of t`); recordings made
    /// before verify did so have nothing to say about them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub toast_observed: bool,
    /// TOAST tables' indexes were looked at (`index of pg_toast of t`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub toast_index_observed: bool,
    /// Not replayed, and why (transaction control, verify's own timeouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Watched from a second session (statements that cannot run in a
    /// transaction): its locks were sampled, not read before COMMIT.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub watched: bool,
    /// PostgreSQL: tables that existed before and were read in full
    /// (`pg_scans`), sorted. `None`: not observed (a recording from before
    /// verify counted scans, a server older than 15, `track_counts` off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scans: Option<Vec<String>>,
    /// PostgreSQL: tables whose relfilenode changed (read by the rewrite,
    /// or emptied by TRUNCATE): their scans are the rewrite's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewritten: Vec<String>,
    /// PostgreSQL: partitioned tables among the predicted relations: no
    /// rows of their own, so no scan of their own (their partitions' are).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitioned: Vec<String>,
    /// Not sent: it acts outside the scratch database (MG901).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withheld: Option<Withheld>,
}

/// Where a withheld statement reaches outside, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withheld {
    /// 1-based line and column of the offending token in the file.
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// One replayed statement: where it is, both sides, and how they differ.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StmtReport {
    pub file: String,
    pub line: usize,
    /// 1-based position of the statement in its file.
    pub index: usize,
    pub statement: String,
    pub predicted: Prediction,
    pub observed: Observed,
    pub disagreements: Vec<String>,
}

impl StmtReport {
    /// One statement's row: what the lock table predicts next to what the
    /// server did (the same for every dialect).
    pub fn new(script: &Script, lines: &Lines, st: &Stmt, observed: Observed) -> StmtReport {
        let text = &script.text[st.span.start..st.span.end];
        let predicted = predict(st);
        StmtReport {
            file: script.name.clone(),
            line: lines.line_col(st.span.start).0,
            index: st.index,
            statement: head(text),
            disagreements: compare::compare(&predicted, &observed),
            predicted,
            observed,
        }
    }
}

/// A whole run; also the format of a recording (`--save`, `observed.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    /// `postgres`, `mysql` or `mariadb`.
    pub dialect: String,
    pub server_version: String,
    pub statements: Vec<StmtReport>,
    /// What the run wants the reader to know (a sandbox it could not set
    /// up, a watch that had to share sessions, leftovers it removed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Run {
    pub fn disagreements(&self) -> usize {
        self.statements
            .iter()
            .filter(|s| !s.disagreements.is_empty())
            .count()
    }
    pub fn withheld(&self) -> usize {
        self.statements
            .iter()
            .filter(|s| s.observed.withheld.is_some())
            .count()
    }
}

/// How a live replay runs: the command's flags (tests build it directly).
#[derive(Clone, Debug)]
pub struct Options {
    /// PostgreSQL: replay in the URL's own database, inside one transaction
    /// that is rolled back.
    pub in_place: bool,
    /// Trusted input: no statement gate and no sandbox role; the replay
    /// runs as the URL's own user.
    pub allow_cluster_wide: bool,
    /// Extensions allowed besides `gate::DEFAULT_EXTENSIONS`.
    pub extensions: Vec<String>,
    pub statement_limit: std::time::Duration,
    pub total_limit: std::time::Duration,
    /// Sessions the PostgreSQL lock watcher may hold at once.
    pub watch_connections: usize,
}

pub const DEFAULT_WATCH_CONNECTIONS: usize = 8;

impl Default for Options {
    fn default() -> Options {
        Options {
            in_place: false,
            allow_cluster_wide: false,
            extensions: Vec::new(),
            statement_limit: limits::DEFAULT_STATEMENT,
            total_limit: limits::DEFAULT_TOTAL,
            watch_connections: DEFAULT_WATCH_CONNECTIONS,
        }
    }
}

/// The gate's verdict on one statement as an observation, when it is not
/// to be sent: skipped, or withheld unless `enforce` is off
/// (`--allow-cluster-wide`).
pub fn gatekeep(
    script: &Script,
    lines: &Lines,
    st: &Stmt,
    policy: &gate::Policy,
    enforce: bool,
) -> Option<Observed> {
    let text = &script.text[st.span.start..st.span.end];
    match gate::judge(text, st.op.as_ref(), policy) {
        gate::Verdict::Run => None,
        gate::Verdict::Withhold(_) if !enforce => None,
        gate::Verdict::Skip(why) => Some(Observed {
            skipped: Some(why.to_string()),
            ..Observed::default()
        }),
        gate::Verdict::Withhold(e) => {
            let (line, column) = lines.line_col(st.span.start + e.at);
            Some(Observed {
                withheld: Some(Withheld {
                    line,
                    column,
                    reason: e.what,
                }),
                ..Observed::default()
            })
        }
    }
}

pub fn dialect_name(d: Dialect) -> &'static str {
    match d {
        Dialect::Postgres => "postgres",
        Dialect::MySql => "mysql",
        Dialect::MariaDb => "mariadb",
    }
}

pub fn dialect_from_name(s: &str) -> Option<Dialect> {
    match s {
        "postgres" => Some(Dialect::Postgres),
        "mysql" => Some(Dialect::MySql),
        "mariadb" => Some(Dialect::MariaDb),
        _ => None,
    }
}

/// A migration file to replay: a display name and its text.
#[derive(Clone, Debug)]
pub struct Script {
    pub name: String,
    pub text: String,
}

/// The context verify predicts with: the server's own dialect and version,
/// no cluster (so no heat), each file run as written (no tool transaction).
pub fn file_ctx(dialect: Dialect, version: Version) -> FileCtx {
    FileCtx {
        dialect,
        version,
        cluster: None,
        hot_tables: Vec::new(),
        table_rows: HashMap::new(),
        large_table_rows: u128::MAX,
        unknown_small: true,
        in_transaction: false,
        require_idempotent: false,
        scope: String::new(),
        server_utc: false,
    }
}

/// Static analysis of the scripts, in order, sharing one schema history.
pub fn analyse(scripts: &[Script], dialect: Dialect, version: Version) -> Vec<FileAnalysis> {
    analyse_in(scripts, file_ctx(dialect, version))
}

/// As `analyse`, in a context the caller knows more about (the server's TimeZone).
pub fn analyse_in(scripts: &[Script], ctx: FileCtx) -> Vec<FileAnalysis> {
    let mut model = Model::default();
    scripts
        .iter()
        .enumerate()
        .map(|(i, s)| analysis::analyze_file(&s.text, i, ctx.clone(), &mut model))
        .collect()
}

/// The statement's first line, for tables and messages.
pub fn head(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    if first.chars().count() > 70 {
        let cut: String = first.chars().take(67).collect();
        format!("{cut}...")
    } else {
        first.to_string()
    }
}

/// Why a replay could not start or go on: exit code 2.
#[derive(Debug)]
pub struct VerifyError(pub String);

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
