//! Findings are plain data: what a rule saw, where, and what would satisfy it.
/// Severities belong to the rule catalogue (each rule has a default); a
/// finding carries the one in force.
pub use crate::catalog::Severity;
use crate::catalog::{FixSafety, RuleId};
use serde::Serialize;
use std::borrow::Cow;
use std::path::PathBuf;

/// Which contract a finding belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ContractRef {
    pub kind: String,
    pub name: String,
}

/// One relation locked by a migration statement. The mode is one of a few
/// words (`SHARE`, `ALGORITHM=COPY, LOCK=SHARED`), borrowed when static: a
/// run holds one per lock of every SQL finding until it is printed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LockFact {
    pub relation: String,
    pub mode: Cow<'static, str>,
}

/// Facts attached to findings about SQL statements (output.md).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SqlFacts {
    pub statement: StatementRef,
    pub locks: Vec<LockFact>,
    pub rewrite: bool,
    pub scan: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct StatementRef {
    pub index: usize,
    /// Shared with the statement (`ALTER TABLE`, a first word): static
    /// for all but rare first words.
    pub kind: Cow<'static, str>,
}

/// A located finding. Line and column are 1-based; `start`/`end` are byte
/// offsets into the file's text for renderers that want them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: RuleId,
    pub severity: Severity,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    #[serde(skip)]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
    pub message: String,
    pub help: Option<String>,
    /// Boxed, as `fix`: rare, and a run holds every finding until printed.
    pub contract: Option<Box<ContractRef>>,
    pub pointer: Option<String>,
    pub sql: Option<SqlFacts>,
    /// What `platcheck fix` and the language server's quick fix would write.
    #[serde(skip)]
    pub fix: Option<Box<Fix>>,
    /// Other places the finding is about (the first definition of a
    /// duplicate): the editor's related information.
    #[serde(skip)]
    pub related: Vec<Related>,
}

/// A secondary place of a finding: byte offsets into the file at `path`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Related {
    pub path: PathBuf,
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// A machine-applicable fix: byte edits of files the run read, and new
/// files (the following migration, a Flyway sidecar).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What the fix does, for `--diff` headers and code-action titles.
    pub title: String,
    /// `Unsafe` when this fix needs a reader even though the rule's fixes
    /// usually do not (a statement moves past others); never above the
    /// rule's own `fix:` level, which `effective` applies.
    pub safety: FixSafety,
    pub edits: Vec<Edit>,
}

/// Replace `start..end` of the file at `path` with `text`, or, with
/// `create`, write a new file holding `text`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edit {
    pub path: PathBuf,
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub create: bool,
}

impl Fix {
    /// The safety in force: the stricter of the rule's and the fix's own.
    pub fn effective(&self, rule: RuleId) -> FixSafety {
        match rule.meta().fix {
            FixSafety::None => FixSafety::None,
            FixSafety::Unsafe => FixSafety::Unsafe,
            FixSafety::Safe => self.safety,
        }
    }
}

impl Finding {
    /// The order of output.md: file, line, column, rule (then message, so
    /// that equal positions are still deterministic).
    pub fn sort_key(&self) -> (&str, usize, usize, RuleId, &str) {
        (&self.file, self.line, self.column, self.rule, &self.message)
    }
}
