//! The coverage matrix (`rules/coverage.yaml`): every requirement the
//! reference documents ask is enforced by a rule or a launch-checklist item,
//! enforced by a documented decision, or named as not checkable in a rule
//! doc's "Not checked" paragraph. `docs/coverage.md` is generated from it and
//! the rule docs' `source:` front matter; regenerate it with
//! `PLATCHECK_UPDATE_COVERAGE=1 cargo test --test coverage`.
mod common;
use platcheck::RuleId;
use platcheck::report::checklist;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Matrix {
    requirements: Vec<Requirement>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Requirement {
    id: String,
    #[serde(rename = "where")]
    at: String,
    asks: String,
    review: String,
    status: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    items: Vec<String>,
    #[serde(default)]
    decision: Option<String>,
    #[serde(default)]
    not_checked: Option<NotChecked>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NotChecked {
    rule: String,
    text: String,
}

const DOCS: &[(&str, &str)] = &[
    (
        "DP",
        "python-service-architecture/references/data-platform-architecture.md",
    ),
    (
        "ED",
        "python-service-architecture/references/event-driven-architecture.md (and its Go twin)",
    ),
    (
        "MQ",
        "go-microservice-architecture/references/mq-consumer-architecture.md",
    ),
    ("CQ", "cqrs-read-model-sync-ru.txt"),
    ("HB", "principal-engineers-handbook.txt"),
];

fn matrix() -> Matrix {
    let text = std::fs::read_to_string(common::root().join("rules/coverage.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("rules/coverage.yaml: {e}"))
}

fn rule(id: &str, at: &str) -> RuleId {
    RuleId::parse(id).unwrap_or_else(|| panic!("{at}: unknown rule {id}"))
}

/// The rule doc's section under `## heading`, up to the next `## `.
fn section(rule: RuleId, heading: &str) -> String {
    let body = &rule.meta().body;
    let start = body
        .find(&format!("## {heading}\n"))
        .unwrap_or_else(|| panic!("{rule}: no `## {heading}`"));
    let rest = &body[start + heading.len() + 4..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The paragraphs of a section that start with `lead`, whitespace squashed.
fn paragraphs(text: &str, lead: &str) -> Vec<String> {
    text.split("\n\n")
        .map(squash)
        .filter(|p| p.starts_with(lead))
        .collect()
}

/// Checks an item reference `<checklist>#<n>` or `<checklist>#<n>:<pointer>`.
fn check_item(reference: &str, at: &str) {
    let (list, rest) = reference
        .split_once('#')
        .unwrap_or_else(|| panic!("{at}: item `{reference}` is not <checklist>#<n>"));
    let (number, pointer) = match rest.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (rest, None),
    };
    let c = checklist::all()
        .iter()
        .find(|c| c.id == list)
        .unwrap_or_else(|| panic!("{at}: no checklist `{list}`"));
    let item = c
        .item(number.parse().unwrap())
        .unwrap_or_else(|| panic!("{at}: {list} has no item {number}"));
    if let Some(p) = pointer {
        assert!(
            item.evidence.iter().any(|f| f.field().field == p),
            "{at}: {list} item {number} has no evidence field {p}"
        );
    }
}

fn accounted(r: &Requirement) -> Result<(), String> {
    let at = &r.id;
    for id in &r.rules {
        rule(id, at);
    }
    for i in &r.items {
        check_item(i, at);
    }
    match r.status.as_str() {
        "F" | "D" if r.rules.is_empty() && r.items.is_empty() => {
            Err(format!("{at}: status {} but no rule or item", r.status))
        }
        "F" | "D" => Ok(()),
        "decided" => {
            if r.rules.is_empty() && r.items.is_empty() {
                return Err(format!("{at}: decided but no rule or item enforces it"));
            }
            let doc = rule(
                r.decision
                    .as_deref()
                    .ok_or(format!("{at}: decided needs `decision`"))?,
                at,
            );
            let why = section(doc, "Why it matters");
            if paragraphs(&why, "**Decision").is_empty() {
                return Err(format!(
                    "{at}: {doc}'s \"Why it matters\" has no **Decision** paragraph"
                ));
            }
            Ok(())
        }
        "X" => {
            let nc = r
                .not_checked
                .as_ref()
                .ok_or(format!("{at}: X needs `not_checked`"))?;
            let doc = rule(&nc.rule, at);
            let found = paragraphs(&doc.meta().body, "Not checked")
                .iter()
                .any(|p| p.contains(&squash(&nc.text)));
            if !found {
                return Err(format!(
                    "{at}: {doc}'s \"Not checked\" paragraph does not say `{}`",
                    nc.text
                ));
            }
            Ok(())
        }
        "N" => Err(format!("{at}: not enforced: {}", r.asks)),
        other => Err(format!("{at}: unknown status {other}")),
    }
}

#[test]
fn every_requirement_is_accounted_for() {
    let m = matrix();
    let mut ids = BTreeSet::new();
    let mut open = Vec::new();
    for r in &m.requirements {
        assert!(ids.insert(r.id.clone()), "{}: duplicate id", r.id);
        assert!(
            DOCS.iter().any(|(p, _)| r.id.starts_with(p)),
            "{}: unknown document prefix",
            r.id
        );
        assert!(
            ["F", "D", "N", "X"].contains(&r.review.as_str()),
            "{}: review",
            r.id
        );
        if r.status == "D" || r.status == "N" {
            open.push(format!("{} ({}): {}", r.id, r.status, r.asks));
        }
        if r.status != "N"
            && let Err(e) = accounted(r)
        {
            panic!("{e}");
        }
    }
    // Every requirement is enforced, decided or named as not checkable: a D
    // (different, undecided) or N (not enforced) row fails.
    assert!(
        open.is_empty(),
        "{} requirements open:\n{}",
        open.len(),
        open.join("\n")
    );
}

/// The probe rules check the running systems against declared values:
/// each is listed under the requirement whose value it checks. PR001 only
/// says a probe could not run.
#[test]
fn every_probe_rule_is_listed_where_it_checks_a_requirement() {
    let m = matrix();
    let listed: BTreeSet<&str> = m
        .requirements
        .iter()
        .flat_map(|r| r.rules.iter().map(String::as_str))
        .collect();
    let unlisted: Vec<&str> = RuleId::ALL
        .iter()
        .map(|r| r.as_str())
        .filter(|r| r.starts_with("PR") && *r != "PR001" && !listed.contains(r))
        .collect();
    assert!(
        unlisted.is_empty(),
        "probe rules in no requirement: {unlisted:?}"
    );
    assert!(!listed.contains("PR001"), "PR001 enforces nothing itself");
}

fn counts<'a>(m: &'a Matrix, key: impl Fn(&'a Requirement) -> &'a str) -> BTreeMap<&'a str, usize> {
    let mut out = BTreeMap::new();
    for r in &m.requirements {
        *out.entry(key(r)).or_default() += 1;
    }
    out
}

fn link(id: RuleId) -> String {
    format!("[{id}](../{})", id.doc_path())
}

fn render(m: &Matrix) -> String {
    let mut out = String::new();
    out.push_str(
        "# Coverage of the reference documents\n\n\
         <!-- Generated by tests/coverage.rs from rules/coverage.yaml and the rule docs' \
         `source:` front matter; do not edit. Regenerate with \
         `PLATCHECK_UPDATE_COVERAGE=1 cargo test --test coverage`. -->\n\n\
         What the reference documents tell an engineer to check, and how platcheck \
         stands on each requirement: **F** enforced as the document says (by a rule, \
         or by a launch-checklist item of `platcheck report`), **decided** enforced \
         on purpose differently from one of the documents (the rule doc's \"Why it \
         matters\" says why, citing both), **D** enforced differently and not yet \
         decided, **N** not enforced, **X** not checkable from a declarative contract \
         (named in the rule doc's \"Not checked\" paragraph).\n\n",
    );
    let review = counts(m, |r| &r.review);
    let now = counts(m, |r| &r.status);
    let _ = writeln!(out, "| class | at the seed review | now |\n|---|---|---|");
    for class in ["F", "decided", "D", "N", "X"] {
        let _ = writeln!(
            out,
            "| {class} | {} | {} |",
            review.get(class).unwrap_or(&0),
            now.get(class).unwrap_or(&0)
        );
    }
    let _ = writeln!(
        out,
        "| total | {} | {} |\n",
        m.requirements.len(),
        m.requirements.len()
    );
    for (prefix, doc) in DOCS {
        let _ = writeln!(out, "## {prefix}: {doc}\n");
        let _ = writeln!(
            out,
            "| id | where | asks | status | enforced by |\n|---|---|---|---|---|"
        );
        for r in m.requirements.iter().filter(|r| r.id.starts_with(prefix)) {
            let mut by: Vec<String> = r.rules.iter().map(|id| link(rule(id, &r.id))).collect();
            by.extend(r.items.iter().map(|i| format!("report `{i}`")));
            if let Some(d) = &r.decision {
                by.push(format!("decision in {}", link(rule(d, &r.id))));
            }
            if let Some(nc) = &r.not_checked {
                by.push(format!(
                    "not checked ({}): {}",
                    link(rule(&nc.rule, &r.id)),
                    nc.text
                ));
            }
            let status = if r.status == r.review {
                r.status.clone()
            } else {
                format!("{} (was {})", r.status, r.review)
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {status} | {} |",
                r.id,
                r.at.replace('|', "\\|"),
                r.asks.replace('|', "\\|"),
                by.join(", ")
            );
        }
        out.push('\n');
    }
    out.push_str("## Rules and the sections they come from\n\n");
    out.push_str("| rule | name | source | requirements |\n|---|---|---|---|\n");
    for &id in RuleId::ALL {
        let s = id.as_str();
        if !["CL", "EV", "XR", "PR"].iter().any(|f| s.starts_with(f)) {
            continue;
        }
        let reqs: Vec<&str> = m
            .requirements
            .iter()
            .filter(|r| r.rules.iter().any(|x| x == s))
            .map(|r| r.id.as_str())
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            link(id),
            id.meta().name,
            id.meta().source.replace('|', "\\|"),
            reqs.join(", ")
        );
    }
    out
}

#[test]
fn docs_coverage_md_is_current() {
    let path = common::root().join("docs/coverage.md");
    let want = render(&matrix());
    if std::env::var_os("PLATCHECK_UPDATE_COVERAGE").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/coverage.md is stale: run `PLATCHECK_UPDATE_COVERAGE=1 cargo test --test coverage`"
    );
}
