//! The migration history as the migration tool sees it: which SQL files (or
//! sections of one file) form one database's history, in the order the tool
//! runs them, which of them are schema dumps (the starting schema), which
//! are down/undo/revert/rollback scripts and which forward step each one
//! undoes, and whether the tool wraps each step in a transaction.
//!
//! The replay itself (one schema model per history, downs judged on a copy
//! of the model after their own up step) is `analysis::analyze`.
mod diesel;
mod flyway;
mod group;
mod layout;
mod liquibase;
mod names;
mod plain;
mod sections;
mod sqitch;
mod tool;
mod versioned;

pub use flyway::runs_outside_transaction as flyway_runs_outside_transaction;
pub use group::plan;
pub use layout::Layout;
pub use names::Flavor;
pub use sqitch::{
    PlanEntry as SqitchEntry, plan_entries as sqitch_plan, plan_project as sqitch_project,
};
pub use tool::{Tool, TxMode, TxPolicy};

/// Every `migrations.tool` name, for the command line.
pub fn tool_names() -> Vec<&'static str> {
    tool::NAMES.iter().map(|(n, _)| *n).collect()
}

/// The migration tool one SQL file's name or directive lines belong to,
/// if they say (`platcheck init` detects a directory's tool with it):
/// Flyway's `V1__x.sql`, golang-migrate's `1_x.up.sql`, a diesel
/// `<version>_<name>/up.sql`, goose/dbmate/sql-migrate sections, Liquibase
/// formatted SQL.
pub fn tool_of_file(dir_name: &str, name: &str, text: &str) -> Option<Tool> {
    if layout::is_liquibase(text) {
        return Some(Tool::Liquibase);
    }
    match layout::markers(text) {
        Some(Layout::Dbmate) => return Some(Tool::Dbmate),
        Some(Layout::Goose) => return Some(Tool::Goose),
        Some(Layout::SqlMigrate) => return Some(Tool::SqlMigrate),
        _ => {}
    }
    if versioned::is_golang_name(name) {
        return Some(Tool::GolangMigrate);
    }
    if matches!(name, "up.sql" | "down.sql") && diesel::is_migration_dir(dir_name) {
        return Some(Tool::Diesel);
    }
    flyway::is_flyway_name(name).then_some(Tool::Flyway)
}

use super::context::FileCtx;
use crate::catalog::RuleId;
use crate::source::Span;
use std::borrow::Cow;
use std::collections::HashMap;

/// A bad or skipped input found while reading the history (PC012–PC016).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub rule: RuleId,
    pub file: usize,
    pub span: Span,
    pub detail: String,
}

/// One script the tool runs: a whole file, or part of one (a dbmate
/// section, a Liquibase changeset or its `--rollback` lines).
#[derive(Debug, Clone, Default)]
pub struct Unit {
    pub file: usize,
    /// The byte ranges of the file that belong to this unit; `None` is the whole file.
    pub keep: Option<Vec<Span>>,
    /// Ranges the tool sends as one statement (goose `StatementBegin`/`End`).
    pub blocks: Vec<Span>,
    /// The tool's own opt-out of its transaction (a directive or sidecar file).
    pub no_tx: bool,
    /// How messages name this unit (`V3__add.sql`, "the `-- migrate:down` section").
    pub label: String,
}

impl Unit {
    pub fn whole(file: usize, label: impl Into<String>) -> Unit {
        Unit {
            file,
            label: label.into(),
            ..Unit::default()
        }
    }

    /// The text the statement splitter sees and the file offset it starts
    /// at: the stretch of the file the unit spans, with whatever inside it
    /// is not the unit (a `--rollback` prefix, another changeset) blanked,
    /// newlines kept, so offsets map back to the file by adding `base`.
    pub fn window<'a>(&self, full: &'a str) -> (usize, Cow<'a, str>) {
        let Some(keep) = &self.keep else {
            return (0, Cow::Borrowed(full));
        };
        let clamp = |at: usize| floor_char(full, at.min(full.len()));
        let (Some(lo), Some(hi)) = (
            keep.iter().map(|s| s.start).min(),
            keep.iter().map(|s| s.end).max(),
        ) else {
            return (0, Cow::Borrowed(""));
        };
        let (lo, hi) = (clamp(lo), clamp(hi));
        if keep.len() == 1 {
            return (lo, Cow::Borrowed(&full[lo..hi]));
        }
        let mut out = String::with_capacity(hi - lo);
        let mut spans = keep.clone();
        spans.sort();
        let mut next = 0;
        for (i, c) in full[lo..hi].char_indices() {
            let at = lo + i;
            while next < spans.len() && spans[next].end <= at {
                next += 1;
            }
            let kept = spans.get(next).is_some_and(|s| s.start <= at);
            if c == '\n' || kept {
                out.push(c);
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        (lo, Cow::Owned(out))
    }
}

/// The char boundary at or before `at`.
fn floor_char(s: &str, mut at: usize) -> usize {
    while at > 0 && !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One forward step and the scripts that undo it.
#[derive(Debug, Clone)]
pub struct Step {
    pub up: Unit,
    pub downs: Vec<Unit>,
    /// The change this step is part of, when the tool splits one change
    /// into several steps that always ship together (popx numbers the
    /// steps of one change: `<14-digit timestamp><6-digit step>`).
    pub change: Option<String>,
}

impl Step {
    pub fn new(up: Unit, downs: Vec<Unit>) -> Step {
        Step {
            up,
            downs,
            change: None,
        }
    }
}

/// One database's history: the files of one Cluster's `migrations.path`,
/// or of one migrations directory.
#[derive(Debug)]
pub struct Group {
    /// The directory, as reported (`migrations`, `cluster:orders-db`).
    pub name: String,
    /// Groups with one `history` share one schema model (a Cluster whose
    /// migrations.path holds directories of different layouts); their
    /// dumps all come before their steps.
    pub history: String,
    pub layout: Layout,
    /// Schema dumps and baselines: the starting schema, never linted.
    pub baseline: Vec<Unit>,
    pub steps: Vec<Step>,
    pub tx: TxPolicy,
}

#[derive(Debug, Default)]
pub struct History {
    pub groups: Vec<Group>,
    pub problems: Vec<Problem>,
    /// The context of every SQL file (dialect, version, cluster, tables).
    pub ctx: HashMap<usize, FileCtx>,
}

/// A file of a group, as the layout readers see it.
#[derive(Debug, Clone)]
pub(crate) struct Input<'a> {
    pub file: usize,
    /// The path below the group's directory, `/`-separated.
    pub rel: String,
    /// The file name without its dialect token (`1_x.postgres.up.sql` → `1_x.up.sql`).
    pub name: String,
    pub flavor: Option<Flavor>,
    pub text: &'a str,
}

impl Input<'_> {
    /// The directory part of `rel` (`""` at the group's root).
    pub fn dir(&self) -> &str {
        self.rel.rsplit_once('/').map_or("", |(d, _)| d)
    }
}

/// What a layout reader produces for one group.
pub(crate) struct Build<'p> {
    pub flavor: Flavor,
    pub steps: Vec<Step>,
    pub baseline: Vec<Unit>,
    pub problems: &'p mut Vec<Problem>,
    /// Tool project configuration files (`flyway.conf`) at or above the group.
    pub projects: Vec<Input<'p>>,
    /// Flyway's `mixed = true`: a migration with a statement that cannot
    /// run in a transaction runs outside one entirely.
    pub flyway_mixed: bool,
}

impl Build<'_> {
    pub fn problem(&mut self, rule: RuleId, file: usize, span: Span, detail: impl Into<String>) {
        self.problems.push(Problem {
            rule,
            file,
            span,
            detail: detail.into(),
        });
    }
    /// SQL before the first section of a file, which the tool never runs:
    /// reported at its first statement.
    pub fn stray_prefix(&mut self, inp: &Input, end: usize, what: &str) {
        let head = &inp.text[..end.min(inp.text.len())];
        let Some(p) = crate::sql::split::split(head, crate::sql::Dialect::Postgres)
            .into_iter()
            .find(|p| p.is_statement())
        else {
            return;
        };
        self.problem(
            RuleId::PC015,
            inp.file,
            p.body,
            format!("this statement comes before {what}: the tool does not run it"),
        );
    }
    /// A problem about a file as a whole, reported at its first line.
    pub fn file_problem(&mut self, rule: RuleId, inp: &Input, detail: impl Into<String>) {
        let first = inp.text.find(['\n', '\r']).unwrap_or(inp.text.len());
        self.problem(rule, inp.file, Span::new(0, first), detail);
    }
}
