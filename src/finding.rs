//! Findings are plain data: what a rule saw, where, and what would satisfy it.
use crate::catalog::RuleId;
/// Severities belong to the rule catalogue (each rule has a default); a
/// finding carries the one in force.
pub use crate::catalog::Severity;
use serde::Serialize;

/// Which contract a finding belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ContractRef {
    pub kind: String,
    pub name: String,
}

/// One relation locked by a migration statement.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LockFact {
    pub relation: String,
    pub mode: String,
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
    pub kind: String,
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
    pub contract: Option<ContractRef>,
    pub pointer: Option<String>,
    pub sql: Option<SqlFacts>,
}

impl Finding {
    /// The order of output.md: file, line, column, rule (then message, so
    /// that equal positions are still deterministic).
    pub fn sort_key(&self) -> (&str, usize, usize, RuleId, &str) {
        (&self.file, self.line, self.column, self.rule, &self.message)
    }
}
