//! The report as data: every contract's checklist with a status per item
//! decided by its evidence, the findings attributed to the contract they
//! concern, the waivers, and the facts of the run. Markdown, HTML and JSON
//! all render this one model.
use super::attribution::{self, Attribution};
use super::checklist::{self, Checklist, Item};
use super::evidence::{Evidence, Missing, Shortfall};
use super::judge;
use crate::catalog::RuleId;
use crate::contracts::{Contract, Kind};
use crate::finding::Finding;
use crate::outcome::Outcome;
use std::collections::BTreeMap;

/// An item's status, in the order a reviewer wants to see problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    NotMet,
    Missing,
    NotChecked,
    Waived,
    Met,
    NotApplicable,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::NotMet,
        Status::Missing,
        Status::NotChecked,
        Status::Waived,
        Status::Met,
        Status::NotApplicable,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Status::NotMet => "not met",
            Status::Missing => "missing evidence",
            Status::NotChecked => "not checked",
            Status::Waived => "waived",
            Status::Met => "met",
            Status::NotApplicable => "not applicable",
        }
    }
    /// For ids, classes, data attributes and the JSON document.
    pub fn slug(self) -> &'static str {
        match self {
            Status::NotMet => "not-met",
            Status::Missing => "missing-evidence",
            Status::NotChecked => "not-checked",
            Status::Waived => "waived",
            Status::Met => "met",
            Status::NotApplicable => "not-applicable",
        }
    }
    /// Whether a reviewer has to act on it.
    pub fn open(self) -> bool {
        matches!(self, Status::NotMet | Status::Missing | Status::NotChecked)
    }
}

/// What the report says about the run itself (its header). Built by the
/// caller (`cli::report_facts` asks git), so the model stays plain data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunFacts {
    /// platcheck's version.
    pub version: String,
    /// The commit the checked files come from; `None` outside git, or
    /// when it was not looked up.
    pub revision: Option<Revision>,
    /// Whether git was asked for the revision (`cli::report_facts`).
    pub revision_looked_up: bool,
    pub today: String,
    /// Where "today" came from (`--today`, `platcheck.yaml`, system date).
    pub today_source: String,
    /// The config file used, as displayed; `None` for the defaults.
    pub config: Option<String>,
    /// `--base GIT-REF` as given (schema compatibility is checked only then).
    pub base: Option<String>,
    /// `--changed-since REF`: findings were limited to changed files.
    pub changed_since: Option<String>,
    /// Who wrote a waiver line, by (file as displayed, 1-based line).
    pub authors: BTreeMap<(String, usize), String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revision {
    pub commit: String,
    /// Uncommitted changes (or untracked files) under the checked paths.
    pub dirty: bool,
}

impl Revision {
    /// The first 12 hex digits, as people quote a commit.
    pub fn short(&self) -> &str {
        self.commit.get(..12).unwrap_or(&self.commit)
    }
}

impl RunFacts {
    /// The facts an outcome knows by itself (no git): for tests and for
    /// renderers that are not given more.
    pub fn of(outcome: &Outcome) -> RunFacts {
        RunFacts {
            version: env!("CARGO_PKG_VERSION").to_string(),
            revision: None,
            revision_looked_up: false,
            today: outcome.today.to_string(),
            today_source: outcome.today_source.as_str().to_string(),
            config: outcome.config.clone(),
            base: outcome.base.clone(),
            changed_since: outcome.changed_since.clone(),
            authors: BTreeMap::new(),
        }
    }
}

/// A finding hidden by an inline suppression or the baseline, or an active
/// finding whose suppression expired.
#[derive(Clone, Debug)]
pub struct Waiver<'a> {
    pub finding: &'a Finding,
    pub kind: WaiverKind,
    /// Where the waiver is written, and its line.
    pub file: String,
    pub line: usize,
    pub reason: String,
    pub until: Option<String>,
    /// Past its `until`: it no longer hides the finding, so the item is not met.
    pub expired: bool,
    /// Who wrote the waiver line (from git), when known.
    pub author: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaiverKind {
    Inline,
    Baseline,
}

impl WaiverKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WaiverKind::Inline => "inline",
            WaiverKind::Baseline => "baseline",
        }
    }
}

/// Part of an item that this run could not check, and what would check it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unchecked {
    pub what: String,
    /// The flag or action that would check it (`pass --base GIT-REF`).
    pub how: String,
}

#[derive(Debug)]
pub struct ItemResult<'a> {
    pub item: &'a Item,
    /// The item text with the contract's own values filled in.
    pub text: String,
    pub status: Status,
    /// Why it is not applicable.
    pub reason: Option<String>,
    /// The rules that must not fire.
    pub rules: Vec<RuleId>,
    /// The fields present, with their values.
    pub evidence: Vec<Evidence>,
    /// The fields absent.
    pub missing: Vec<Missing>,
    /// Fields written with a value their schema refuses (an enum typo): not
    /// missing — the finding that refused it says what to write.
    pub invalid: Vec<Invalid<'a>>,
    /// Fields present with a value that does not satisfy the item.
    pub short: Vec<Shortfall>,
    pub unchecked: Vec<Unchecked>,
    /// Findings of its rules that are in force.
    pub findings: Vec<&'a Finding>,
    /// Suppressed findings (waived), and expired waivers of active ones.
    pub waivers: Vec<Waiver<'a>>,
}

/// A field the contract writes but the schema refused (PC004): the loader
/// keeps no value, so the evidence walk sees none; the report says why.
#[derive(Clone, Debug)]
pub struct Invalid<'a> {
    pub label: String,
    pub pointer: String,
    pub finding: &'a Finding,
}

/// Item counts by status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub contracts: usize,
    pub by_status: BTreeMap<Status, usize>,
}

impl Counts {
    pub fn get(&self, s: Status) -> usize {
        self.by_status.get(&s).copied().unwrap_or(0)
    }
    /// Every item, applicable or not.
    pub fn total(&self) -> usize {
        self.by_status.values().sum()
    }
    /// The denominator: items that apply.
    pub fn applicable(&self) -> usize {
        self.total() - self.get(Status::NotApplicable)
    }
    fn add(&mut self, c: &ContractReport) {
        self.contracts += 1;
        for i in &c.items {
            *self.by_status.entry(i.status).or_default() += 1;
        }
    }
}

#[derive(Debug)]
pub struct ContractReport<'a> {
    pub kind: Kind,
    pub name: String,
    pub owner: String,
    pub lifecycle: String,
    pub file: String,
    pub line: usize,
    pub checklist: &'a Checklist,
    pub items: Vec<ItemResult<'a>>,
    /// Findings about the contract that decide no checklist item.
    pub other: Vec<&'a Finding>,
    /// Waivers of such findings.
    pub other_waivers: Vec<Waiver<'a>>,
}

impl ContractReport<'_> {
    pub fn count(&self, status: Status) -> usize {
        self.items.iter().filter(|i| i.status == status).count()
    }
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        c.add(self);
        c
    }
}

#[derive(Debug)]
pub struct Report<'a> {
    pub facts: RunFacts,
    pub contracts: Vec<ContractReport<'a>>,
    /// Findings that concern no contract (docs, config, unreadable files,
    /// migrations under no cluster's `migrations.path`).
    pub outside: Vec<&'a Finding>,
    /// Waived findings that concern no contract.
    pub outside_waived: usize,
}

impl Report<'_> {
    pub fn totals(&self) -> Counts {
        let mut t = Counts::default();
        for c in &self.contracts {
            t.add(c);
        }
        t
    }
    pub fn clusters(&self) -> usize {
        self.contracts
            .iter()
            .filter(|c| c.kind == Kind::Cluster)
            .count()
    }
    pub fn boundaries(&self) -> usize {
        self.contracts.len() - self.clusters()
    }
    pub fn waivers(&self) -> usize {
        self.contracts
            .iter()
            .flat_map(|c| {
                c.items
                    .iter()
                    .map(|i| i.waivers.len())
                    .chain([c.other_waivers.len()])
            })
            .sum::<usize>()
            + self.outside_waived
    }
    /// Counts per owner, owners in name order.
    pub fn by_owner(&self) -> BTreeMap<&str, Counts> {
        let mut m: BTreeMap<&str, Counts> = BTreeMap::new();
        for c in &self.contracts {
            m.entry(c.owner.as_str()).or_default().add(c);
        }
        m
    }
    /// Counts per lifecycle, in lifecycle order (production first).
    pub fn by_lifecycle(&self) -> Vec<(&str, Counts)> {
        let mut m: BTreeMap<(usize, &str), Counts> = BTreeMap::new();
        for c in &self.contracts {
            m.entry((lifecycle_rank(&c.lifecycle), c.lifecycle.as_str()))
                .or_default()
                .add(c);
        }
        m.into_iter().map(|((_, l), c)| (l, c)).collect()
    }
    pub fn owners(&self) -> Vec<&str> {
        self.by_owner().into_keys().collect()
    }
}

fn lifecycle_rank(l: &str) -> usize {
    [
        "production",
        "experimental",
        "deprecated",
        "decommissioning",
    ]
    .iter()
    .position(|x| *x == l)
    .unwrap_or(4)
}

pub const NO_OWNER: &str = "(no owner)";
pub const NO_LIFECYCLE: &str = "(no lifecycle)";

/// The report of one run.
pub fn build(outcome: &Outcome, facts: RunFacts) -> Report<'_> {
    let attr = Attribution::of(outcome, &facts);
    let mut contracts: Vec<ContractReport> = outcome
        .contracts
        .iter()
        .enumerate()
        .filter(|(_, c)| outcome.in_scope(&outcome.files[c.file].display))
        .filter_map(|(i, c)| {
            let list = checklist::for_kind(c.kind)?;
            Some(contract(outcome, &facts, &attr, i, c, list))
        })
        .collect();
    contracts.sort_by(|a, b| {
        (a.kind, &a.name, &a.file, a.line).cmp(&(b.kind, &b.name, &b.file, b.line))
    });
    Report {
        outside: attr.outside.iter().map(|&f| &outcome.findings[f]).collect(),
        outside_waived: attr.outside_waived,
        facts,
        contracts,
    }
}

fn contract<'a>(
    outcome: &'a Outcome,
    facts: &RunFacts,
    attr: &Attribution<'a>,
    index: usize,
    c: &'a Contract,
    list: &'a Checklist,
) -> ContractReport<'a> {
    let src = &outcome.files[c.file];
    let mine = attr.findings_of(index);
    let waivers = attr.waivers_of(index);
    let meta = |p: &str, default: &str| {
        c.get(p)
            .and_then(|n| n.scalar_text())
            .filter(|s| !s.is_empty() && s != "null")
            .unwrap_or_else(|| default.to_string())
    };
    let mut placed_findings = vec![false; mine.len()];
    let mut placed_waivers = vec![false; waivers.len()];
    let items: Vec<ItemResult> = list
        .items
        .iter()
        .map(|item| {
            let findings: Vec<&Finding> = mine
                .iter()
                .enumerate()
                .filter(|(_, f)| attribution::decides(f, item))
                .map(|(i, f)| {
                    placed_findings[i] = true;
                    *f
                })
                .collect();
            let item_waivers: Vec<Waiver> = waivers
                .iter()
                .enumerate()
                .filter(|(_, w)| attribution::decides(w.finding, item))
                .map(|(i, w)| {
                    placed_waivers[i] = true;
                    w.clone()
                })
                .collect();
            judge::item(outcome, facts, c, item, findings, item_waivers)
        })
        .collect();
    let other = mine
        .iter()
        .zip(&placed_findings)
        .filter(|(_, placed)| !**placed)
        .map(|(f, _)| *f)
        .collect();
    let other_waivers = waivers
        .iter()
        .zip(&placed_waivers)
        .filter(|(_, placed)| !**placed)
        .map(|(w, _)| w.clone())
        .collect();
    ContractReport {
        kind: c.kind,
        name: if c.name.is_empty() {
            "(unnamed)".into()
        } else {
            c.name.clone()
        },
        owner: meta("/metadata/owner", NO_OWNER),
        lifecycle: meta("/metadata/lifecycle", NO_LIFECYCLE),
        file: src.display.clone(),
        line: src.line_col(c.span_for("/metadata/name").start).line,
        checklist: list,
        items,
        other,
        other_waivers,
    }
}
