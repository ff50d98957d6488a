//! The report as data: every contract's checklist with a status per item,
//! the evidence and the findings, built from one run's `Outcome`.
use super::checklist::{self, Checklist, Item};
use super::conditions;
use super::evidence::{self, Evidence};
use crate::catalog::{self, RuleId};
use crate::contracts::{Contract, Kind};
use crate::finding::Finding;
use crate::outcome::Outcome;
use std::collections::BTreeMap;

/// An item's status, in the order a reviewer wants to see problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    NotMet,
    Missing,
    Attested,
    Met,
    NotApplicable,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::NotMet,
        Status::Missing,
        Status::Attested,
        Status::Met,
        Status::NotApplicable,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Status::NotMet => "not met",
            Status::Missing => "missing",
            Status::Attested => "attested",
            Status::Met => "met",
            Status::NotApplicable => "not applicable",
        }
    }
    /// For ids, classes and data attributes.
    pub fn slug(self) -> &'static str {
        match self {
            Status::NotMet => "not-met",
            Status::Missing => "missing",
            Status::Attested => "attested",
            Status::Met => "met",
            Status::NotApplicable => "n-a",
        }
    }
}

#[derive(Debug)]
pub struct ItemResult<'a> {
    pub item: &'a Item,
    pub status: Status,
    /// Why it is not applicable, attested or missing.
    pub reason: Option<String>,
    /// The rules that decide the item (from their front matter).
    pub rules: Vec<RuleId>,
    pub evidence: Vec<Evidence>,
    pub findings: Vec<&'a Finding>,
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
}

impl ContractReport<'_> {
    pub fn count(&self, status: Status) -> usize {
        self.items.iter().filter(|i| i.status == status).count()
    }
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
    pub fn total(&self) -> usize {
        self.by_status.values().sum()
    }
    fn add(&mut self, c: &ContractReport) {
        self.contracts += 1;
        for i in &c.items {
            *self.by_status.entry(i.status).or_default() += 1;
        }
    }
}

#[derive(Debug)]
pub struct Report<'a> {
    pub today: String,
    pub today_source: &'static str,
    pub contracts: Vec<ContractReport<'a>>,
    /// Findings that belong to no contract (SQL, docs, config, unreadable files).
    pub unattached: usize,
    /// Findings hidden by inline suppressions or the baseline.
    pub suppressed: usize,
}

impl Report<'_> {
    pub fn totals(&self) -> Counts {
        let mut t = Counts::default();
        for c in &self.contracts {
            t.add(c);
        }
        t
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

pub fn build(outcome: &Outcome) -> Report<'_> {
    let mut contracts: Vec<ContractReport> = outcome
        .contracts
        .iter()
        .filter_map(|c| Some(contract(outcome, c, checklist::for_kind(c.kind)?)))
        .collect();
    contracts.sort_by(|a, b| {
        (a.kind, &a.name, &a.file, a.line).cmp(&(b.kind, &b.name, &b.file, b.line))
    });
    Report {
        today: outcome.today.to_string(),
        today_source: outcome.today_source.as_str(),
        contracts,
        unattached: outcome
            .findings
            .iter()
            .filter(|f| f.contract.is_none())
            .count(),
        suppressed: outcome.summary.suppressed,
    }
}

fn contract<'a>(outcome: &'a Outcome, c: &'a Contract, list: &'a Checklist) -> ContractReport<'a> {
    let src = &outcome.files[c.file];
    let line_of = |n: &crate::contracts::yaml::Node| src.line_col(n.span.start).line;
    let reference = c.contract_ref();
    let mine: Vec<&Finding> = outcome
        .findings
        .iter()
        .filter(|f| f.contract.as_ref() == Some(&reference) && f.file == src.display)
        .collect();
    let meta = |p: &str, default: &str| {
        c.get(p)
            .and_then(|n| n.scalar_text())
            .filter(|s| !s.is_empty() && s != "null")
            .unwrap_or_else(|| default.to_string())
    };
    let items: Vec<ItemResult> = list
        .items
        .iter()
        .map(|item| {
            let rules = list.rules(item.number);
            let findings: Vec<&Finding> = mine
                .iter()
                .copied()
                .filter(|f| decides(f, &rules, item))
                .collect();
            let evidence: Vec<Evidence> = item
                .evidence
                .iter()
                .flat_map(|p| evidence::collect(c, p, &line_of))
                .collect();
            let (status, reason) = judge(outcome, c, item, &rules, &findings);
            ItemResult {
                item,
                status,
                reason,
                rules,
                evidence,
                findings,
            }
        })
        .collect();
    let other = mine
        .iter()
        .copied()
        .filter(|f| !items.iter().any(|i| i.findings.contains(f)))
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
    }
}

/// A finding decides an item when its rule names the item, or when it says
/// one of the item's own values is invalid (a contract-level PC finding at
/// or below an evidence pointer: the rules skip such values silently).
fn decides(f: &Finding, rules: &[RuleId], item: &Item) -> bool {
    if rules.contains(&f.rule) {
        return true;
    }
    f.rule.meta().input == "contract"
        && f.pointer.as_deref().is_some_and(|p| {
            item.evidence
                .iter()
                .chain(&item.attest)
                .any(|pat| evidence::under_pattern(pat, p))
        })
}

fn judge(
    outcome: &Outcome,
    c: &Contract,
    item: &Item,
    rules: &[RuleId],
    findings: &[&Finding],
) -> (Status, Option<String>) {
    if !findings.is_empty() {
        return (Status::NotMet, None);
    }
    if let Some(cond) = &item.applies_when
        && let Some(Err(why)) = conditions::applies(cond, c)
    {
        let template = item.not_applicable.as_deref().unwrap_or("{why}");
        return (
            Status::NotApplicable,
            Some(catalog::render_template(template, &[("why", why)])),
        );
    }
    let (on, off): (Vec<RuleId>, Vec<RuleId>) = rules.iter().partition(|r| outcome.rule_on(**r));
    if !on.is_empty() {
        return (Status::Met, None);
    }
    // No rule can decide: the contract's own declaration is all there is.
    let why = if off.is_empty() {
        "no rule can verify this item".to_string()
    } else {
        let ids: Vec<&str> = off.iter().map(|r| r.as_str()).collect();
        format!("{} turned off in the config", ids.join(", "))
    };
    attestation(c, item, &why)
}

/// Judged from the contract alone: the `attest` fields must all be present
/// (or, for an item whose rules are turned off, any of its evidence).
fn attestation(c: &Contract, item: &Item, why: &str) -> (Status, Option<String>) {
    let present = |p: &String| !evidence::collect(c, p, &|_| 0).is_empty();
    if item.attest.is_empty() {
        return if item.evidence.iter().any(present) {
            (
                Status::Attested,
                Some(format!("{why}; the contract declares it")),
            )
        } else {
            (
                Status::Missing,
                Some(format!(
                    "{why}, and the contract declares none of its fields"
                )),
            )
        };
    }
    let absent: Vec<String> = item
        .attest
        .iter()
        .filter(|p| !present(p))
        .map(|p| p.trim_start_matches("/spec/").replace('/', "."))
        .collect();
    if absent.is_empty() {
        (
            Status::Attested,
            Some(format!("{why}; the contract declares it")),
        )
    } else {
        (
            Status::Missing,
            Some(format!(
                "{why}, and the contract lacks {}",
                absent.join(", ")
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contracts::yaml::parse_documents;
    use crate::source::SourceFile;

    fn item(attest: &[&str]) -> Item {
        checklist::parse(&format!(
            "id: t\ntitle: t\nkind: Cluster\nsource: s\nitems:\n  - number: 1\n    title: t\n    text: t\n    source: s\n    evidence: [/spec/cost/last_review]\n    attest: [{}]\n",
            attest.join(", ")
        ))
        .unwrap()
        .items
        .remove(0)
    }

    #[test]
    fn attest_fields_must_all_be_present() {
        let src = SourceFile::new(
            "c.yaml",
            "c.yaml",
            "spec:\n  cost:\n    last_review: 2026-11-01\n",
        );
        let c = Contract {
            file: 0,
            kind: Kind::Cluster,
            name: "c".into(),
            root: parse_documents(&src).unwrap().remove(0),
        };
        let why = "no rule can verify this item";
        let (s, r) = attestation(&c, &item(&["/spec/cost/last_review"]), why);
        assert_eq!(s, Status::Attested);
        assert_eq!(
            r.unwrap(),
            "no rule can verify this item; the contract declares it"
        );
        let both = item(&["/spec/cost/last_review", "/spec/cost/archive_test"]);
        let (s, r) = attestation(&c, &both, why);
        assert_eq!(s, Status::Missing);
        assert_eq!(
            r.unwrap(),
            "no rule can verify this item, and the contract lacks cost.archive_test"
        );
        let (s, _) = attestation(&c, &item(&[]), why);
        assert_eq!(
            s,
            Status::Attested,
            "without attest, any evidence field attests"
        );
    }
}
