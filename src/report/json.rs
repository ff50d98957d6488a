//! `platcheck report --format json`: the report model as one JSON document,
//! for launch dashboards. Its shape is `schemas/report.schema.json`
//! (`platcheck schema report`); findings are written as in output v1.
use super::model::{ContractReport, Counts, ItemResult, Report, Status, Waiver};
use crate::finding::{ContractRef, Finding, LockFact, StatementRef};
use serde::Serialize;

#[path = "json_item.rs"]
mod item;

/// The schema of this document, embedded for `platcheck schema report`.
pub const SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// One finding in the shape of output v1: the only definition, written by
/// `check --format json` (`output::json`) and inside this report alike.
/// Here rather than in `output` because `report` ranks below it.
#[derive(Serialize)]
pub(crate) struct JsonFinding<'a> {
    rule: &'static str,
    name: &'a str,
    severity: &'static str,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contract: Option<&'a ContractRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    statement: Option<&'a StatementRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    locks: Option<&'a [LockFact]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rewrite: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scan: Option<bool>,
    url: String,
}

pub(crate) fn convert(f: &Finding) -> JsonFinding<'_> {
    JsonFinding {
        rule: f.rule.as_str(),
        name: &f.rule.meta().name,
        severity: f.severity.as_str(),
        file: &f.file,
        line: f.line,
        column: f.column,
        end_line: f.end_line,
        end_column: f.end_column,
        message: &f.message,
        help: f.help.as_deref(),
        contract: f.contract.as_deref(),
        pointer: f.pointer.as_deref(),
        statement: f.sql.as_ref().map(|s| &s.statement),
        locks: f.sql.as_ref().map(|s| s.locks.as_slice()),
        rewrite: f.sql.as_ref().map(|s| s.rewrite),
        scan: f.sql.as_ref().map(|s| s.scan),
        url: f.rule.url(),
    }
}

#[derive(Serialize)]
struct Doc<'a> {
    version: u32,
    kind: &'static str,
    tool: Tool<'a>,
    run: Run<'a>,
    totals: JsonCounts,
    by_owner: Vec<Group<'a>>,
    by_lifecycle: Vec<Group<'a>>,
    contracts: Vec<JsonContract<'a>>,
    outside_contracts: Vec<JsonFinding<'a>>,
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'static str,
    version: &'a str,
}

#[derive(Serialize)]
struct Run<'a> {
    revision: Option<Revision<'a>>,
    today: &'a str,
    today_source: &'a str,
    config: Option<&'a str>,
    base: Option<&'a str>,
    changed_since: Option<&'a str>,
}

#[derive(Serialize)]
struct Revision<'a> {
    commit: &'a str,
    dirty: bool,
}

#[derive(Serialize)]
struct JsonCounts {
    contracts: usize,
    items: usize,
    applicable: usize,
    met: usize,
    not_met: usize,
    missing_evidence: usize,
    not_checked: usize,
    waived: usize,
    not_applicable: usize,
}

impl From<&Counts> for JsonCounts {
    fn from(c: &Counts) -> Self {
        JsonCounts {
            contracts: c.contracts,
            items: c.total(),
            applicable: c.applicable(),
            met: c.get(Status::Met),
            not_met: c.get(Status::NotMet),
            missing_evidence: c.get(Status::Missing),
            not_checked: c.get(Status::NotChecked),
            waived: c.get(Status::Waived),
            not_applicable: c.get(Status::NotApplicable),
        }
    }
}

#[derive(Serialize)]
struct Group<'a> {
    name: &'a str,
    counts: JsonCounts,
}

#[derive(Serialize)]
struct Checklist<'a> {
    id: &'a str,
    title: &'a str,
    source: &'a str,
}

#[derive(Serialize)]
struct JsonContract<'a> {
    kind: &'static str,
    name: &'a str,
    owner: &'a str,
    lifecycle: &'a str,
    file: &'a str,
    line: usize,
    checklist: Checklist<'a>,
    counts: JsonCounts,
    items: Vec<JsonItem<'a>>,
    other_findings: Vec<JsonFinding<'a>>,
    other_waivers: Vec<JsonWaiver<'a>>,
}

#[derive(Serialize)]
struct JsonItem<'a> {
    number: u32,
    title: &'a str,
    text: &'a str,
    source: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_applicable: Option<&'a str>,
    rules: Vec<&'a str>,
    evidence: Vec<Field<'a>>,
    missing: Vec<MissingField<'a>>,
    /// Fields written with a value their schema refuses: the markdown and
    /// HTML reports list them, so a dashboard must see them too.
    invalid: Vec<InvalidField<'a>>,
    falls_short: Vec<Short<'a>>,
    not_checked: Vec<Unchecked<'a>>,
    findings: Vec<JsonFinding<'a>>,
    waivers: Vec<JsonWaiver<'a>>,
}

#[derive(Serialize)]
struct Field<'a> {
    field: &'a str,
    pointer: &'a str,
    value: &'a str,
    line: usize,
}

#[derive(Serialize)]
struct MissingField<'a> {
    field: &'a str,
    pointer: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
}

#[derive(Serialize)]
struct InvalidField<'a> {
    field: &'a str,
    pointer: &'a str,
    /// The finding that refused the value (it says what to write).
    finding: JsonFinding<'a>,
}

#[derive(Serialize)]
struct Short<'a> {
    field: &'a str,
    pointer: &'a str,
    value: &'a str,
    expected: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
    line: usize,
}

#[derive(Serialize)]
struct Unchecked<'a> {
    what: &'a str,
    how: &'a str,
}

#[derive(Serialize)]
struct JsonWaiver<'a> {
    kind: &'static str,
    file: &'a str,
    line: usize,
    reason: &'a str,
    until: Option<&'a str>,
    expired: bool,
    author: Option<&'a str>,
    finding: JsonFinding<'a>,
}

fn waiver<'a>(w: &'a Waiver) -> JsonWaiver<'a> {
    JsonWaiver {
        kind: w.kind.as_str(),
        file: &w.file,
        line: w.line,
        reason: &w.reason,
        until: w.until.as_deref(),
        expired: w.expired,
        author: w.author.as_deref(),
        finding: convert(w.finding),
    }
}

fn item<'a>(i: &'a ItemResult) -> JsonItem<'a> {
    JsonItem {
        number: i.item.number,
        title: &i.item.title,
        text: &i.text,
        source: &i.item.source,
        status: i.status.slug(),
        not_applicable: i.reason.as_deref(),
        rules: i.item.rules.iter().map(|r| r.pattern()).collect(),
        evidence: i
            .evidence
            .iter()
            .map(|e| Field {
                field: &e.label,
                pointer: &e.pointer,
                value: &e.value,
                line: e.line,
            })
            .collect(),
        missing: i
            .missing
            .iter()
            .map(|m| MissingField {
                field: &m.label,
                pointer: &m.pointer,
                why: m.why.as_deref(),
            })
            .collect(),
        invalid: i
            .invalid
            .iter()
            .map(|v| InvalidField {
                field: &v.label,
                pointer: &v.pointer,
                finding: convert(v.finding),
            })
            .collect(),
        falls_short: i
            .short
            .iter()
            .map(|s| Short {
                field: &s.label,
                pointer: &s.pointer,
                value: &s.value,
                expected: &s.expected,
                why: s.why.as_deref(),
                line: s.line,
            })
            .collect(),
        not_checked: i
            .unchecked
            .iter()
            .map(|u| Unchecked {
                what: &u.what,
                how: &u.how,
            })
            .collect(),
        findings: i.findings.iter().map(|f| convert(f)).collect(),
        waivers: i.waivers.iter().map(waiver).collect(),
    }
}

fn contract<'a>(c: &'a ContractReport) -> JsonContract<'a> {
    JsonContract {
        kind: c.kind.as_str(),
        name: &c.name,
        owner: &c.owner,
        lifecycle: &c.lifecycle,
        file: &c.file,
        line: c.line,
        checklist: Checklist {
            id: &c.checklist.id,
            title: &c.checklist.title,
            source: &c.checklist.source,
        },
        counts: (&c.counts()).into(),
        items: c.items.iter().map(item).collect(),
        other_findings: c.other.iter().map(|f| convert(f)).collect(),
        other_waivers: c.other_waivers.iter().map(waiver).collect(),
    }
}

pub fn render(r: &Report) -> String {
    let f = &r.facts;
    let groups = |rows: Vec<(&str, Counts)>| -> Vec<(String, Counts)> {
        rows.into_iter().map(|(n, c)| (n.to_string(), c)).collect()
    };
    let owners = groups(r.by_owner().into_iter().collect());
    let lifecycles = groups(r.by_lifecycle());
    let doc = Doc {
        version: 1,
        kind: "launch-checklist-report",
        tool: Tool {
            name: "platcheck",
            version: &f.version,
        },
        run: Run {
            revision: f.revision.as_ref().map(|r| Revision {
                commit: &r.commit,
                dirty: r.dirty,
            }),
            today: &f.today,
            today_source: &f.today_source,
            config: f.config.as_deref(),
            base: f.base.as_deref(),
            changed_since: f.changed_since.as_deref(),
        },
        totals: (&r.totals()).into(),
        by_owner: owners
            .iter()
            .map(|(n, c)| Group {
                name: n,
                counts: c.into(),
            })
            .collect(),
        by_lifecycle: lifecycles
            .iter()
            .map(|(n, c)| Group {
                name: n,
                counts: c.into(),
            })
            .collect(),
        contracts: r.contracts.iter().map(contract).collect(),
        outside_contracts: r.outside.iter().map(|f| convert(f)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
