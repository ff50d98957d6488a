//! Which contract a finding concerns. A contract finding names its contract;
//! a migration finding concerns the Cluster whose `migrations.path` holds
//! the file; a schema-compatibility finding (EV053) on a payload schema
//! concerns the boundary whose `schema.path` it is; and a cross-file finding
//! (XR) also concerns the contract its `via` field names, as the checklist
//! data declares. Only what concerns no contract is "outside".
use super::checklist::{self, Item};
use super::evidence;
use super::model::{RunFacts, Waiver, WaiverKind};
use crate::catalog::RuleId;
use crate::contracts::{Contract, Kind};
use crate::finding::Finding;
use crate::outcome::{Outcome, WaivedBy};
use crate::source::{FileClass, normalize};
use std::collections::HashMap;
use std::path::PathBuf;

pub struct Attribution<'a> {
    /// Per contract (index into `outcome.contracts`): its active findings.
    findings: Vec<Vec<&'a Finding>>,
    /// Per contract: its waivers.
    waivers: Vec<Vec<Waiver<'a>>>,
    /// Active findings (indexes into `outcome.findings`) of no contract.
    pub outside: Vec<usize>,
    pub outside_waived: usize,
}

impl<'a> Attribution<'a> {
    pub fn of(outcome: &'a Outcome, facts: &RunFacts) -> Attribution<'a> {
        let index = Index::new(outcome);
        let n = outcome.contracts.len();
        let mut a = Attribution {
            findings: vec![Vec::new(); n],
            waivers: vec![Vec::new(); n],
            outside: Vec::new(),
            outside_waived: 0,
        };
        for (i, f) in outcome.findings.iter().enumerate() {
            let to = index.concerns(f);
            if to.is_empty() {
                a.outside.push(i);
            }
            for c in to {
                a.findings[c].push(f);
            }
        }
        for w in waivers(outcome, facts, &index) {
            let to = index.concerns(w.finding);
            if to.is_empty() {
                a.outside_waived += 1;
            }
            for c in to {
                a.waivers[c].push(w.clone());
            }
        }
        a
    }
    pub fn findings_of(&self, contract: usize) -> &[&'a Finding] {
        &self.findings[contract]
    }
    pub fn waivers_of(&self, contract: usize) -> &[Waiver<'a>] {
        &self.waivers[contract]
    }
}

/// A finding decides an item when its rule is one the item says must not
/// fire, or when it says one of the item's own values is invalid (a
/// contract-level PC finding at or below an evidence field: the rules skip
/// such values silently).
pub fn decides(f: &Finding, item: &Item) -> bool {
    if let Some(spec) = item.rule_spec(f.rule) {
        let at = spec.at();
        return at.is_empty()
            || f.pointer
                .as_deref()
                .is_some_and(|p| at.iter().any(|a| evidence::under_pattern(a, p)));
    }
    f.rule.meta().input == "contract"
        && f.pointer.as_deref().is_some_and(|p| {
            item.fields()
                .iter()
                .any(|field| evidence::under_pattern(&field.field, p))
        })
}

struct Index<'a> {
    outcome: &'a Outcome,
    by_name: HashMap<(Kind, &'a str), Vec<usize>>,
    /// Each cluster's normalised `migrations.path`.
    migrations: HashMap<PathBuf, usize>,
    /// Each boundary's normalised payload schema path.
    schemas: HashMap<PathBuf, Vec<usize>>,
    file_index: HashMap<&'a str, usize>,
}

impl<'a> Index<'a> {
    fn new(outcome: &'a Outcome) -> Index<'a> {
        let root = normalize(&outcome.root);
        // A contract path (`schema.path`, `migrations.path`) is relative to
        // the config's directory, as the engine resolves it.
        let under_root = |c: &Contract, pointer: &str| {
            c.get(pointer)
                .and_then(|n| n.as_str())
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| normalize(&root.join(p)))
        };
        let mut by_name: HashMap<(Kind, &str), Vec<usize>> = HashMap::new();
        let mut schemas: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        let mut migrations: HashMap<PathBuf, usize> = HashMap::new();
        for (i, c) in outcome.contracts.iter().enumerate() {
            by_name
                .entry((c.kind, c.name.as_str()))
                .or_default()
                .push(i);
            match c.kind {
                Kind::EventBoundary => {
                    if let Some(p) = under_root(c, "/spec/schema/path") {
                        schemas.entry(p).or_default().push(i);
                    }
                }
                Kind::Cluster => {
                    if let Some(p) = under_root(c, "/spec/migrations/path") {
                        migrations.entry(p).or_insert(i);
                    }
                }
            }
        }
        let file_index = outcome
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.display.as_str(), i))
            .rev()
            .collect();
        Index {
            outcome,
            by_name,
            migrations,
            schemas,
            file_index,
        }
    }

    fn contract(&self, i: usize) -> &'a Contract {
        &self.outcome.contracts[i]
    }

    /// The contracts a finding concerns, without repeats.
    fn concerns(&self, f: &Finding) -> Vec<usize> {
        let mut out = Vec::new();
        if let Some(r) = &f.contract {
            let named = Kind::parse(&r.kind)
                .and_then(|k| self.by_name.get(&(k, r.name.as_str())))
                .map_or(&[][..], Vec::as_slice);
            // Two contracts may share a name (PC007): the one in the
            // finding's file is meant.
            let in_file: Vec<usize> = named
                .iter()
                .copied()
                .filter(|&i| self.outcome.files[self.contract(i).file].display == f.file)
                .collect();
            out.extend(if in_file.is_empty() {
                named.to_vec()
            } else {
                in_file
            });
        } else if let Some(file) = self.file_index.get(f.file.as_str()) {
            let src = &self.outcome.files[*file];
            let path = normalize(&src.path);
            if self.outcome.classes[*file] == Some(FileClass::Sql) {
                // The most specific migrations.path holding the file.
                if let Some(&c) = path
                    .ancestors()
                    .skip(1)
                    .find_map(|d| self.migrations.get(d))
                {
                    out.push(c);
                }
            } else if f.rule == RuleId::EV053
                && let Some(cs) = self.schemas.get(&path)
            {
                out.extend(cs);
            } else if let Some(c) = self.document_at(*file, f.start) {
                // A finding in a contract's own file without a contract of
                // its own (a suppression there, PC010) concerns that
                // contract: the document it sits in.
                out.push(c);
            }
        }
        let direct = out.clone();
        for c in direct {
            out.extend(self.via(f, self.contract(c)));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The contract document of `file` that holds byte `offset`: the last
    /// one starting at or before it (documents follow each other).
    fn document_at(&self, file: usize, offset: usize) -> Option<usize> {
        self.outcome
            .contracts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.file == file && c.root.span.start <= offset)
            .max_by_key(|(_, c)| c.root.span.start)
            .map(|(i, _)| i)
            .or_else(|| {
                // Before the first document's first key (a leading comment).
                self.outcome.contracts.iter().position(|c| c.file == file)
            })
    }

    /// Contracts of another kind that a finding on `source` concerns
    /// through a field the checklist names (`via`).
    fn via(&self, f: &Finding, source: &Contract) -> Vec<usize> {
        let mut out = Vec::new();
        for list in checklist::all() {
            let Some(kind) = list.kind().filter(|k| *k != source.kind) else {
                continue;
            };
            for item in &list.items {
                let Some(spec) = item.rule_spec(f.rule) else {
                    continue;
                };
                let named = spec
                    .via()
                    .iter()
                    .find_map(|p| source.get(p).and_then(|n| n.as_str()));
                if let Some(ids) = named.and_then(|n| self.by_name.get(&(kind, n))) {
                    out.extend(ids);
                }
            }
        }
        out
    }
}

/// Every waiver of the run: the findings suppressed inline or by the
/// baseline, and the active findings an expired suppression once covered.
fn waivers<'a>(outcome: &'a Outcome, facts: &RunFacts, index: &Index) -> Vec<Waiver<'a>> {
    let author = |file: &str, line: usize| facts.authors.get(&(file.to_string(), line)).cloned();
    let mut out = Vec::new();
    for w in &outcome.waived {
        out.push(match &w.by {
            WaivedBy::Inline(i) => {
                let s = &outcome.suppressions[*i];
                let file = outcome.files[s.file].display.clone();
                Waiver {
                    finding: &w.finding,
                    kind: WaiverKind::Inline,
                    author: author(&file, s.line),
                    file,
                    line: s.line,
                    reason: s.reason.clone(),
                    until: s.until.map(|d| d.to_string()),
                    expired: false,
                }
            }
            WaivedBy::Baseline { file, line } => Waiver {
                finding: &w.finding,
                kind: WaiverKind::Baseline,
                author: author(file, *line),
                file: file.clone(),
                line: *line,
                reason: format!("accepted debt recorded in the baseline {file}"),
                until: None,
                expired: false,
            },
        });
    }
    for s in &outcome.suppressions {
        if !matches!(s.defect, Some(("expired", _))) {
            continue;
        }
        let file = &outcome.files[s.file].display;
        for f in &outcome.findings {
            if index.file_index.get(f.file.as_str()) == Some(&s.file)
                && f.line == s.target_line
                && s.rules.iter().any(|r| r == f.rule.as_str())
            {
                out.push(Waiver {
                    finding: f,
                    kind: WaiverKind::Inline,
                    author: author(file, s.line),
                    file: file.clone(),
                    line: s.line,
                    reason: s.reason.clone(),
                    until: s.until.map(|d| d.to_string()),
                    expired: true,
                });
            }
        }
    }
    out
}
