//! The prediction-vs-observed table (human) and the run as JSON; each
//! disagreement also printed as an MG900 finding line.
use super::compare::{observed_text, predicted_text};
use super::{Run, StmtReport};
use crate::catalog::{RuleId, render_template};
use serde::Serialize;
use std::fmt::Write as _;

fn yn(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn rewrite_cell(s: &StmtReport) -> String {
    let o = match (&s.observed.skipped, &s.observed.error, s.observed.rewrite) {
        (Some(_), _, _) | (_, Some(_), _) | (_, _, None) => "-",
        (_, _, Some(r)) => yn(r),
    };
    format!("{}/{o}", yn(s.predicted.rewrite))
}

/// What the server did, and how it was seen: a statement that cannot run
/// in a transaction had its locks sampled from a second session (an
/// index or view lock not caught there is not judged); every other one
/// was read from `pg_locks` before COMMIT, exactly.
fn observed_cell(s: &StmtReport) -> String {
    let mut cell = observed_text(&s.observed);
    if s.observed.watched && s.observed.error.is_none() {
        cell.push_str(" (sampled)");
    }
    if let Some(scans) = s.observed.scans.as_ref().filter(|v| !v.is_empty()) {
        let _ = write!(cell, "; full scan of {}", scans.join(", "));
    }
    cell
}

/// The MG900 message for one statement (the rule's template).
pub fn message(s: &StmtReport, server: &str) -> String {
    let meta = RuleId::MG900.meta();
    let vars = [
        ("statement", s.index.to_string()),
        ("sql", s.statement.clone()),
        ("predicted", predicted_text(&s.predicted)),
        ("observed", observed_text(&s.observed)),
        ("server", server.to_string()),
        ("detail", s.disagreements.join("; ")),
    ];
    let template = if s.observed.error.is_some() {
        meta.messages.get("refused").unwrap_or(&meta.message)
    } else {
        &meta.message
    };
    render_template(template, &vars)
}

/// The MG901 message for a withheld statement.
pub fn withheld_message(s: &StmtReport) -> Option<String> {
    let w = s.observed.withheld.as_ref()?;
    let vars = [
        ("statement", s.index.to_string()),
        ("sql", s.statement.clone()),
        ("detail", w.reason.clone()),
    ];
    Some(render_template(&RuleId::MG901.meta().message, &vars))
}

pub fn server_label(run: &Run) -> String {
    let product = match run.dialect.as_str() {
        "postgres" => "PostgreSQL",
        "mariadb" => "MariaDB",
        _ => "MySQL",
    };
    let version = run.server_version.split_whitespace().next().unwrap_or("");
    format!("{product} {version}")
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n - 3).collect::<String>())
    }
}

pub fn human(run: &Run, source: &str) -> String {
    let server = server_label(run);
    let rows: Vec<[String; 5]> = run
        .statements
        .iter()
        .map(|s| {
            [
                format!("{}:{}", s.file, s.line),
                cut(&s.statement, 48),
                predicted_text(&s.predicted),
                observed_cell(s),
                rewrite_cell(s),
            ]
        })
        .collect();
    let header = [
        "STATEMENT AT",
        "SQL",
        "PREDICTED",
        "OBSERVED",
        "REWRITE P/O",
    ];
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "verify: {server} ({source})");
    let line = |out: &mut String, cells: [&str; 5], mark: &str| {
        let mut l = String::from(mark);
        for (i, (c, w)) in cells.iter().zip(width).enumerate() {
            if i == 4 {
                l.push_str(c);
            } else {
                let _ = write!(l, "{c:<w$}  ");
            }
        }
        let _ = writeln!(out, "{}", l.trim_end());
    };
    line(&mut out, header, "  ");
    for (r, s) in rows.iter().zip(&run.statements) {
        let mark = if s.disagreements.is_empty() && s.observed.withheld.is_none() {
            "  "
        } else {
            "! "
        };
        line(&mut out, [&r[0], &r[1], &r[2], &r[3], &r[4]], mark);
    }
    out.push('\n');
    // Findings in file order: MG900 at the statement, MG901 at the token.
    for s in &run.statements {
        let sev = |r: RuleId| r.meta().severity.as_str();
        if !s.disagreements.is_empty() {
            let _ = writeln!(
                out,
                "{}:{}:1: {} {}: {}",
                s.file,
                s.line,
                sev(RuleId::MG900),
                RuleId::MG900,
                message(s, &server)
            );
        }
        if let (Some(w), Some(m)) = (&s.observed.withheld, withheld_message(s)) {
            let _ = writeln!(
                out,
                "{}:{}:{}: {} {}: {m}",
                s.file,
                w.line,
                w.column,
                sev(RuleId::MG901),
                RuleId::MG901,
            );
        }
    }
    let n = run.disagreements();
    let withheld = run.withheld();
    if withheld > 0 {
        let _ = writeln!(
            out,
            "{withheld} statement{} withheld: {} outside the scratch database",
            if withheld == 1 { "" } else { "s" },
            if withheld == 1 { "it acts" } else { "they act" },
        );
    }
    let sampled = run.statements.iter().filter(|s| s.observed.watched).count();
    if sampled > 0 {
        let _ = writeln!(
            out,
            "{sampled} statement{} could not run in a transaction: {} locks were sampled from a second session (marked \"sampled\"; an index, view or TOAST lock not caught there, or caught weaker than predicted, is not judged); every other statement's locks were read before COMMIT, exactly",
            if sampled == 1 { "" } else { "s" },
            if sampled == 1 { "its" } else { "their" },
        );
    }
    let agree = run.statements.len() - n - withheld;
    // A refusal is a migration that fails on this server, not a wrong
    // lock-table row: the two counts are told apart.
    let refused = run
        .statements
        .iter()
        .filter(|s| {
            !s.disagreements.is_empty()
                && s.observed.error.is_some()
                && s.predicted.refused.is_none()
        })
        .count();
    let split = if refused > 0 {
        format!(
            " ({refused} refused by the server{}, {} prediction mismatch{})",
            refusal_causes(run),
            n - refused,
            if n - refused == 1 { "" } else { "es" }
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{} statement{}, {agree} agree{}, {n} disagreement{}{split}",
        run.statements.len(),
        if run.statements.len() == 1 { "" } else { "s" },
        if agree == 1 { "s" } else { "" },
        if n == 1 { "" } else { "s" },
    );
    out
}

/// `: 4 syntax newer than this server, 92 after an earlier refusal`, in
/// order of first appearance; empty when no refusal has a known cause.
fn refusal_causes(run: &Run) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for r in run
        .statements
        .iter()
        .filter_map(|s| s.observed.refusal.as_ref())
    {
        match counts.iter_mut().find(|(l, _)| *l == r.label()) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.label(), 1)),
        }
    }
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts.iter().map(|(l, n)| format!("{n} {l}")).collect();
    format!(": {}", parts.join(", "))
}

#[derive(Serialize)]
struct FindingJson<'a> {
    rule: &'static str,
    severity: &'static str,
    file: &'a str,
    line: usize,
    column: usize,
    message: String,
}

#[derive(Serialize)]
struct RunJson<'a> {
    #[serde(flatten)]
    run: &'a Run,
    findings: Vec<FindingJson<'a>>,
}

/// The run (readable back as a recording) plus its MG900 findings.
pub fn json(run: &Run) -> String {
    let server = server_label(run);
    let mut findings: Vec<FindingJson> = run
        .statements
        .iter()
        .filter(|s| !s.disagreements.is_empty())
        .map(|s| FindingJson {
            rule: RuleId::MG900.as_str(),
            severity: RuleId::MG900.meta().severity.as_str(),
            file: &s.file,
            line: s.line,
            column: 1,
            message: message(s, &server),
        })
        .collect();
    findings.extend(run.statements.iter().filter_map(|s| {
        let w = s.observed.withheld.as_ref()?;
        Some(FindingJson {
            rule: RuleId::MG901.as_str(),
            severity: RuleId::MG901.meta().severity.as_str(),
            file: &s.file,
            line: w.line,
            column: w.column,
            message: withheld_message(s)?,
        })
    }));
    let mut s = serde_json::to_string_pretty(&RunJson { run, findings }).unwrap_or_default();
    s.push('\n');
    s
}
