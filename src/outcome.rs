//! The result of a run as plain data: the findings and what the printers,
//! the report and `main` need besides (the files the findings quote, the
//! contracts the report reads, the suppressions met). Nothing here knows how
//! it was computed; everything above the engine reads only this.
use crate::catalog::{RuleId, Severity};
use crate::contracts::Contract;
use crate::finding::Finding;
use crate::source::{FileClass, SourceFile, Span};
use jiff::civil::Date;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notices: usize,
    pub suppressed: usize,
}

/// The result of a run: plain data for the printers and `main`.
#[derive(Debug)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    pub summary: Summary,
    pub today: Date,
    pub today_source: TodaySource,
    /// The threshold `main` judges the findings against.
    pub fail_on: FailOn,
    /// Fingerprints name files relative to this directory (the config's
    /// folder, else the working directory).
    pub root: PathBuf,
    /// The baseline file in effect (`--baseline`, or `baseline:` in the config).
    pub baseline: Option<PathBuf>,
    /// The config file used, as displayed (`None`: the defaults).
    pub config: Option<String>,
    /// `--base GIT-REF` as given: payload schemas were compared with it.
    pub base: Option<String>,
    /// `--changed-since REF`: findings were limited to changed files.
    pub changed_since: Option<String>,
    /// Every file of the run, in workspace order (findings name them by
    /// display path; printers quote their text).
    pub files: Vec<SourceFile>,
    /// The class of each file in `files` (`None` for the config file and
    /// paths that could not be read).
    pub classes: Vec<Option<FileClass>>,
    /// Every contract; `Contract::file` indexes `files`.
    pub contracts: Vec<Contract>,
    /// The rules the config turned off.
    pub rules_off: BTreeSet<RuleId>,
    /// Every inline suppression met, with whether it matched.
    pub suppressions: Vec<Suppression>,
    /// Run-level remarks that are not findings (see `Sink::notes`).
    pub notes: Vec<String>,
    /// The findings suppressed inline or by the baseline, with what hid
    /// them: the launch report shows them as waivers.
    pub waived: Vec<Waived>,
    /// When named paths lay inside a larger workspace: the display paths
    /// the findings were limited to (`None`: every file of the run).
    pub scope: Option<BTreeSet<String>>,
}

/// The findings of one file, in the final order (see `Outcome::by_file`).
#[derive(Debug, Clone, Copy)]
pub struct FileFindings<'a> {
    /// The display path the findings name.
    pub file: &'a str,
    /// The index of the first of them in `Outcome::findings`.
    pub at: usize,
    pub findings: &'a [Finding],
}

impl Outcome {
    /// The findings file by file, in the final sort order (by file first,
    /// so each file's are consecutive): what a streaming printer writes one
    /// file at a time. `findings` stays the whole sorted list.
    pub fn by_file(&self) -> impl Iterator<Item = FileFindings<'_>> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            let first = self.findings.get(at)?;
            let len = self.findings[at..]
                .iter()
                .take_while(|f| f.file == first.file)
                .count();
            let chunk = FileFindings {
                file: &first.file,
                at,
                findings: &self.findings[at..at + len],
            };
            at += len;
            Some(chunk)
        })
    }

    /// Whether findings about this file (display path) are reported.
    pub fn in_scope(&self, display: &str) -> bool {
        self.scope.as_ref().is_none_or(|s| s.contains(display))
    }
}

/// A finding that a suppression or the baseline hid.
#[derive(Debug, Clone)]
pub struct Waived {
    pub finding: Finding,
    pub by: WaivedBy,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaivedBy {
    /// An inline suppression: its index in `Outcome::suppressions`.
    Inline(usize),
    /// An entry of the baseline file: its display path and the entry's line.
    Baseline { file: String, line: usize },
}

impl Outcome {
    /// Whether a rule ran (was not turned off in the config).
    pub fn rule_on(&self, rule: RuleId) -> bool {
        !self.rules_off.contains(&rule)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FailOn {
    Notice,
    Warning,
    Error,
    Never,
}

impl FailOn {
    pub fn parse(s: &str) -> Option<FailOn> {
        match s {
            "notice" => Some(FailOn::Notice),
            "warning" => Some(FailOn::Warning),
            "error" => Some(FailOn::Error),
            "never" => Some(FailOn::Never),
            _ => None,
        }
    }
    pub fn fails(self, s: Severity) -> bool {
        match self {
            FailOn::Never => false,
            FailOn::Error => s >= Severity::Error,
            FailOn::Warning => s >= Severity::Warning,
            FailOn::Notice => true,
        }
    }
}

/// Where "today" came from; every output says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TodaySource {
    Flag,
    Config,
    System,
}

impl TodaySource {
    pub fn as_str(self) -> &'static str {
        match self {
            TodaySource::Flag => "--today",
            TodaySource::Config => "platcheck.yaml",
            TodaySource::System => "system date, UTC",
        }
    }
}

/// One inline suppression comment (`platcheck-ignore RULE: reason`).
#[derive(Debug, Clone, PartialEq)]
pub struct Suppression {
    pub file: usize,
    /// The line the comment is on (1-based).
    pub line: usize,
    /// The line whose findings it silences.
    pub target_line: usize,
    /// `target_line`'s text (empty past the end of the file): PC010's
    /// related place.
    pub target_span: Span,
    pub span: Span,
    pub rules: Vec<String>,
    pub reason: String,
    pub until: Option<Date>,
    /// Why it is not in force, if it is not (PC010 variant and detail).
    pub defect: Option<(&'static str, String)>,
    pub used: bool,
    /// `--no-inline-suppressions` turned it off: `used` then says whether
    /// it would have hidden a finding (which is reported instead).
    pub off: bool,
}
