//! `--format json`: one JSON document, exactly as output.md specifies.
use crate::finding::{ContractRef, Finding, LockFact, StatementRef};
use crate::outcome::{Outcome, Summary};
use serde::Serialize;

#[derive(Serialize)]
struct Doc<'a> {
    version: u32,
    tool: Tool,
    today: String,
    findings: Vec<JsonFinding<'a>>,
    summary: Summary,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
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

fn convert(f: &Finding) -> JsonFinding<'_> {
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
        contract: f.contract.as_ref(),
        pointer: f.pointer.as_deref(),
        statement: f.sql.as_ref().map(|s| &s.statement),
        locks: f.sql.as_ref().map(|s| s.locks.as_slice()),
        rewrite: f.sql.as_ref().map(|s| s.rewrite),
        scan: f.sql.as_ref().map(|s| s.scan),
        url: f.rule.url(),
    }
}

pub fn render(outcome: &Outcome) -> String {
    let doc = Doc {
        version: 1,
        tool: Tool {
            name: "platcheck",
            version: env!("CARGO_PKG_VERSION"),
        },
        today: outcome.today.to_string(),
        findings: outcome.findings.iter().map(convert).collect(),
        summary: outcome.summary,
        notes: &outcome.notes,
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
