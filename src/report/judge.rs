//! One item's status, from its evidence: not applicable when its condition
//! does not hold; not met when a rule that must not fire fires (or a waiver
//! expired) or a value falls short, even if a field is also absent; missing
//! evidence when a field it needs is absent; not checked when the run lacked an input it needs; waived
//! when the only findings are suppressed; met otherwise.
use super::checklist::{Input, Item, Need};
use super::conditions;
use super::evidence::{self, Ctx, Evidence, Missing};
use super::model::{Invalid, ItemResult, RunFacts, Status, Unchecked, Waiver};
use crate::catalog;
use crate::catalog::plural;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::finding::Finding;
use crate::outcome::Outcome;
use crate::source::{FileClass, normalize};

pub fn item<'a>(
    outcome: &'a Outcome,
    facts: &RunFacts,
    c: &'a Contract,
    item: &'a Item,
    findings: Vec<&'a Finding>,
    waivers: Vec<Waiver<'a>>,
) -> ItemResult<'a> {
    let src = &outcome.files[c.file];
    let line_of = |n: &Node| src.line_col(n.span.start).line;
    let mut r = ItemResult {
        item,
        text: evidence::render_text(&item.text, c),
        status: Status::Met,
        reason: None,
        rules: item.rule_ids().to_vec(),
        evidence: Vec::new(),
        missing: Vec::new(),
        invalid: Vec::new(),
        short: Vec::new(),
        unchecked: Vec::new(),
        findings,
        waivers,
    };
    if let Some(cond) = &item.applies_when
        && let Some(Err(why)) = conditions::applies(cond, c)
    {
        let template = item.not_applicable.as_deref().unwrap_or("{why}");
        r.reason = Some(catalog::render_template(template, &[("why", why)]));
        // A rule that fires anyway (an invalid value in the block) still
        // needs a look; the evidence is not asked for.
        r.status = if r.findings.is_empty() {
            Status::NotApplicable
        } else {
            Status::NotMet
        };
        return r;
    }
    let placeholder = |v: &str| placeholder_runbook(outcome, v);
    let ctx = Ctx {
        today: outcome.today,
        line_of: &line_of,
        placeholder: &placeholder,
    };
    for field in item.fields() {
        let found = evidence::check(c, field, &ctx);
        r.evidence.extend(found.present);
        r.short.extend(found.short);
        for m in found.missing {
            if !r.missing.iter().any(|x: &Missing| x.label == m.label) {
                r.missing.push(m);
            }
        }
    }
    // A value that failed its schema (`product: postgres`) is not missing
    // evidence: it is written, and wrong.
    let (invalid, missing): (Vec<Missing>, Vec<Missing>) = std::mem::take(&mut r.missing)
        .into_iter()
        .partition(|m| refused(&r.findings, &m.pointer).is_some());
    r.missing = missing;
    r.invalid = invalid
        .into_iter()
        .filter_map(|m| {
            Some(Invalid {
                finding: refused(&r.findings, &m.pointer)?,
                label: m.label,
                pointer: m.pointer,
            })
        })
        .collect();
    for need in &item.needs {
        if let Some(u) = unchecked(outcome, facts, c, need) {
            r.unchecked.push(u);
        } else if need.input == Input::MigrationFiles
            && let Some(e) = migrations_checked(outcome, c, &line_of)
        {
            r.evidence.push(e);
        }
    }
    // A rule the item names that the config turned off has not looked.
    for spec in item.rules.iter().filter(|s| s.explicit()) {
        for rule in spec.expand() {
            if !outcome.rule_on(rule) {
                r.unchecked.push(Unchecked {
                    what: format!("{rule} {}", rule.meta().name),
                    how: format!(
                        "it is turned off in {}",
                        facts.config.as_deref().unwrap_or("the config")
                    ),
                });
            }
        }
    }
    let expired = r.waivers.iter().any(|w| w.expired);
    // A known failure outranks unknown evidence: an item whose rule fired
    // (or whose value falls short) is not met even while a field is also
    // missing, which it still lists; otherwise a finding would hide behind
    // "missing evidence".
    r.status = if !r.findings.is_empty() || !r.short.is_empty() || expired {
        Status::NotMet
    } else if !r.missing.is_empty() {
        Status::Missing
    } else if !r.unchecked.is_empty() {
        Status::NotChecked
    } else if !r.waivers.is_empty() {
        Status::Waived
    } else {
        Status::Met
    };
    r
}

/// The schema finding (PC004) that refused the value at `pointer` or at a
/// block holding it.
fn refused<'a>(findings: &[&'a Finding], pointer: &str) -> Option<&'a Finding> {
    findings.iter().copied().find(|f| {
        f.rule == crate::RuleId::PC004
            && f.pointer.as_deref().is_some_and(|p| {
                pointer == p || pointer.strip_prefix(p).is_some_and(|r| r.starts_with('/'))
            })
    })
}

/// The SQL files under `migrations.path` that this run checked.
fn migration_files<'a>(outcome: &Outcome, c: &'a Contract) -> Option<(&'a str, Vec<usize>)> {
    let rel = c.get("/spec/migrations/path")?.as_str()?;
    let dir = normalize(&outcome.root.join(rel));
    let files = outcome
        .files
        .iter()
        .zip(&outcome.classes)
        .enumerate()
        .filter(|(_, (f, class))| {
            **class == Some(FileClass::Sql) && normalize(&f.path).starts_with(&dir)
        })
        .map(|(i, _)| i)
        .collect();
    Some((rel, files))
}

fn migrations_checked(
    outcome: &Outcome,
    c: &Contract,
    line_of: &dyn Fn(&Node) -> usize,
) -> Option<Evidence> {
    let node = c.get("/spec/migrations/path")?;
    let (rel, files) = migration_files(outcome, c)?;
    Some(Evidence {
        label: "migration files checked".into(),
        pointer: "/spec/migrations/path".into(),
        value: format!(
            "{} under {rel}",
            plural(files.len(), "SQL file", "SQL files")
        ),
        line: line_of(node),
    })
}

fn unchecked(outcome: &Outcome, facts: &RunFacts, c: &Contract, need: &Need) -> Option<Unchecked> {
    if let Some(w) = &need.when
        && super::when::holds(w, &c.root, None) != Some(true)
    {
        return None;
    }
    match need.input {
        Input::Base => facts.base.is_none().then(|| Unchecked {
            what: need.what.clone(),
            how: "pass --base GIT-REF (the revision to compare with)".into(),
        }),
        Input::MigrationFiles => {
            let (rel, files) = migration_files(outcome, c)?;
            files.is_empty().then(|| Unchecked {
                what: need.what.clone(),
                how: format!(
                    "no SQL file under {rel} was among the checked inputs: include that directory in the run"
                ),
            })
        }
    }
}

/// Whether `value` names a file of the run (relative to the root) that
/// still starts with `platcheck init`'s placeholder line.
fn placeholder_runbook(outcome: &Outcome, value: &str) -> bool {
    if !value.ends_with(".md") {
        return false;
    }
    let want = crate::source::normalize(&outcome.root.join(value));
    outcome.files.iter().any(|f| {
        f.text.starts_with(crate::source::PLACEHOLDER_RUNBOOK)
            && crate::source::normalize(&f.path) == want
    })
}
