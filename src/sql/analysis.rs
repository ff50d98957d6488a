//! The per-script walk: split, lex, parse, classify each statement; follow
//! transactions and session settings; judge each statement against the
//! schema so far and the lock table. `replay` runs it over every history in
//! the tool's order, once per run (cached in the run's
//! `registry::Analyses`); every MG rule reads the result.
use super::context::FileCtx;
use super::effects::Effect;
use super::history::{self, Problem};
use super::locks::{MyPlan, PgMode};
use super::ops::{Name, Op};
use super::parse::Parsed;
pub use super::replay::{ObservedRows, Slot, analyze, analyze_observed};
use super::split::SplitError;
use crate::finding::{LockFact, SqlFacts, StatementRef};
use crate::source::Span;
use std::borrow::Cow;
use std::collections::HashMap;

mod compact;
mod pieces;
mod walk;
pub use walk::{Source, analyze_file, analyze_source};

/// The classifier reads the head of a statement; past this many tokens a
/// statement is data (a huge INSERT), and the rest is not kept.
pub const TOKEN_LIMIT: usize = 20_000;

#[derive(Debug)]
pub struct Stmt {
    /// 1-based position in its script: the file, or the section or
    /// changeset of it that the tool runs as one.
    pub index: usize,
    /// The statement text in the file (no leading comments, no terminator).
    pub span: Span,
    /// The statement's kind for messages (`ALTER TABLE`, or its first word).
    pub kind: Cow<'static, str>,
    /// `None`: neither sqlparser nor the classifier understood it.
    pub op: Option<Op>,
    pub parsed: Parsed,
    /// Boxed: rare, and kept for every statement.
    pub split_error: Option<Box<SplitError>>,
    /// The transaction the statement runs in (explicit, or the tool's).
    pub tx: Option<u32>,
    pub lock_timeout: bool,
    pub statement_timeout: bool,
    pub fk_checks_off: bool,
    /// Boxed slices, as judged once: every statement is kept until the
    /// rules have run, and a `Vec` is a word more of each (issue 21).
    pub effects: Box<[Effect]>,
    pub locks: Box<[(Name, PgMode)]>,
    /// What few statements have (see `Rare`; read through `maybe_locks`,
    /// `secondary` and `refused`).
    rare: Option<Box<Rare>>,
    pub rewrite: bool,
    pub scan: bool,
    /// MySQL/MariaDB: the algorithm and DML level the server would choose.
    pub plan: Option<MyPlan>,
}

/// The facts most statements lack, boxed so that those pay one word each
/// (inline they were 72 bytes of every statement the analysis keeps).
#[derive(Debug, Default)]
pub struct Rare {
    /// Locks taken only if rows reach the relation (`Effect::conditional`).
    pub maybe_locks: Vec<(Name, PgMode)>,
    /// The relations in `locks` that are indexes, views or sequences (not
    /// tables): `verify` observes those only where a prediction names them.
    pub secondary: Vec<String>,
    /// The server refuses the statement, and why (a lock-table row that
    /// says so): the migration fails there.
    pub refused: Option<String>,
}

/// Where a script sits in its history.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Role {
    /// A forward step (or a script outside any layout).
    #[default]
    Up,
    /// A down/undo/revert/rollback script, judged on the schema after its
    /// own up step; `note` is appended to its findings' messages.
    Down { note: String },
}

/// One script: a file, or the part of one the tool runs as a unit.
#[derive(Debug)]
pub struct FileAnalysis {
    pub file: usize,
    pub ctx: FileCtx,
    pub stmts: Vec<Stmt>,
    /// Tables, views and indexes created in this script → index of the
    /// creating statement (0: by an earlier step of the same change).
    pub created: HashMap<String, usize>,
    pub role: Role,
    /// `(offset, text)` when the script's text differs from the file's
    /// inside its statements (a rollback spread over `--rollback` lines).
    pub window: Option<(usize, String)>,
    /// Whose transaction a statement with `tx == Some(0)` runs in.
    pub tool_tx: String,
    /// The history this script belongs to: its layout and the tool whose
    /// transaction rules apply (`fix` writes that tool's opt-out).
    pub layout: Option<history::Layout>,
    pub tool: Option<history::Tool>,
}

#[derive(Debug, Default)]
pub struct Analysis {
    pub files: Vec<FileAnalysis>,
    /// Bad or skipped inputs found while reading the histories (PC012–PC016).
    pub problems: Vec<Problem>,
}

impl FileAnalysis {
    /// What a finding in this script adds to its message: for a down
    /// script, which up step it was judged after.
    pub fn note(&self) -> Option<&str> {
        match &self.role {
            Role::Down { note } => Some(note),
            Role::Up => None,
        }
    }
    /// Created earlier in this file (or by this very statement): nobody
    /// else can be using it, so locking it blocks no one.
    pub fn is_new(&self, name: &Name, stmt: &Stmt) -> bool {
        self.created
            .get(&name.name)
            .is_some_and(|&i| i <= stmt.index)
    }
}

impl Stmt {
    /// Locks taken only if rows reach the relation (`Effect::conditional`).
    pub fn maybe_locks(&self) -> &[(Name, PgMode)] {
        self.rare.as_ref().map_or(&[], |r| &r.maybe_locks)
    }
    /// The relations in `locks` that are indexes, views or sequences.
    pub fn secondary(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |r| &r.secondary)
    }
    /// Why the server refuses the statement, if it does.
    pub fn refused(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.refused.as_deref())
    }
    /// Records the rare facts, boxed only when there are some.
    pub fn set_rare(&mut self, mut rare: Rare) {
        rare.maybe_locks.shrink_to_fit();
        rare.secondary.shrink_to_fit();
        let none =
            rare.maybe_locks.is_empty() && rare.secondary.is_empty() && rare.refused.is_none();
        self.rare = (!none).then(|| Box::new(rare));
    }

    /// The facts every SQL finding carries (output.md).
    pub fn facts(&self, ctx: &FileCtx) -> SqlFacts {
        let locks = if let Some(plan) = self.plan {
            self.effects
                .iter()
                .filter_map(|e| e.table.as_ref())
                .take(1)
                .map(|t| LockFact {
                    relation: t.display(),
                    mode: Cow::Owned(my_mode(plan)),
                })
                .collect()
        } else {
            self.locks
                .iter()
                .map(|(n, m)| LockFact {
                    relation: n.display(),
                    mode: Cow::Borrowed(m.as_str()),
                })
                .collect()
        };
        let _ = ctx;
        SqlFacts {
            statement: StatementRef {
                index: self.index,
                kind: self.kind.clone(),
            },
            locks,
            rewrite: self.rewrite,
            scan: self.scan,
        }
    }
    /// The strongest lock this statement takes on `table`.
    pub fn lock_on(&self, table: &Name) -> PgMode {
        self.locks
            .iter()
            .filter(|(n, _)| n.name == table.name)
            .map(|(_, m)| *m)
            .max()
            .unwrap_or(PgMode::None)
    }
}

pub fn my_mode(p: MyPlan) -> String {
    let lock = if p.exclusive {
        "EXCLUSIVE"
    } else if p.concurrent_dml {
        "NONE"
    } else {
        "SHARED"
    };
    format!("ALGORITHM={}, LOCK={lock}", p.algorithm.as_str())
}
