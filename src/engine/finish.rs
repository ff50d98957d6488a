//! Suppressions and severity overrides, then each report rendered into a
//! finding (message and help from the catalogue, spans as lines and
//! columns), sorted.
use crate::catalog;
use crate::catalog::RuleId;
use crate::discover::FileClass;
use crate::emit::Report;
use crate::finding::{Finding, Severity};
use crate::outcome::{Waived, WaivedBy};
use crate::settings::Settings;
use crate::suppress;
use crate::workspace::Workspace;

/// Applies suppressions and severity overrides and renders the findings
/// (suppressions scanned only in the `shown` files when given).
pub(super) fn finish(
    ws: &Workspace,
    settings: &Settings,
    reports: Vec<Report>,
    notes: &mut Vec<String>,
    shown: Option<&[bool]>,
) -> (Vec<Finding>, Vec<Waived>, Vec<suppress::Suppression>) {
    let mut sups = Vec::new();
    for (i, src) in ws.files.iter().enumerate() {
        // Suppressions in files the run does not report on hide nothing shown.
        if shown.is_some_and(|s| !s.get(i).copied().unwrap_or(true)) {
            continue;
        }
        let class = ws.classes[i].unwrap_or(FileClass::Yaml);
        sups.extend(suppress::scan(i, src, class, settings.today));
    }
    if settings.no_inline_suppressions {
        // Audits see everything; the suppressions stay listed, marked off,
        // and a note says which of them the flag kept from hiding a finding.
        let hidden = reports
            .iter()
            .filter(|r| r.rule != RuleId::PC000)
            .filter(|r| {
                settings
                    .severity_at(r.rule, &ws.files[r.file].path)
                    .0
                    .is_some()
            })
            .map(|r| (r.file, ws.files[r.file].line_col(r.span.start).line, r.rule));
        notes.extend(suppress::turn_off(&mut sups, hidden, &ws.files));
        let mut findings: Vec<Finding> = reports
            .into_iter()
            .filter_map(|r| {
                let (sev, configured) = settings.severity_at(r.rule, &ws.files[r.file].path);
                let sev = match (sev, r.severity) {
                    (Some(_), Some(own)) if !configured => Some(own),
                    (s, _) => s,
                };
                sev.map(|s| render(ws, r, s))
            })
            .collect();
        findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        findings.dedup();
        return (findings, Vec::new(), sups);
    }
    // Sized once: a vector grown by doubling can keep twice the room it
    // needs, and there can be a finding per statement.
    let mut findings = Vec::with_capacity(reports.len());
    let mut waived = Vec::new();
    for r in reports {
        let (severity, configured) = settings.severity_at(r.rule, &ws.files[r.file].path);
        let Some(mut severity) = severity else {
            continue;
        };
        // A per-finding severity applies unless the config overrides the rule.
        if let Some(s) = r.severity
            && !configured
        {
            severity = s;
        }
        let line = ws.files[r.file].line_col(r.span.start).line;
        // An internal error always reaches the exit code.
        if r.rule != RuleId::PC000
            && let Some(by) = suppress::matches(&mut sups, r.file, line, r.rule)
        {
            waived.push(Waived {
                finding: render(ws, r, severity),
                by: WaivedBy::Inline(by),
            });
            continue;
        }
        findings.push(render(ws, r, severity));
    }
    // A suppression of a rule this kind of run does not run (a PR rule in
    // `check`, a CL rule in `probe`) is not unused: the other run uses it.
    let judged: Vec<suppress::Suppression> = sups
        .iter()
        .filter(|s| {
            s.used
                || s.defect.is_some()
                || s.rules
                    .iter()
                    .any(|r| catalog::lookup(r).is_none_or(|id| runs(settings, id)))
        })
        .cloned()
        .collect();
    for r in suppress::defects(&judged) {
        if let Some(severity) = settings.severity(r.rule) {
            findings.push(render(ws, r, severity));
        }
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
    waived.sort_by(|a, b| a.finding.sort_key().cmp(&b.finding.sort_key()));
    (findings, waived, sups)
}

/// Whether this run runs the rule's family: the PR rules only when
/// probing, and `platcheck probe` nothing but them (and the loader's PC).
fn runs(settings: &Settings, id: RuleId) -> bool {
    let probe_rule = crate::rules::pr::covers(id);
    match &settings.probe {
        None => !probe_rule,
        Some(p) if p.only_probe_rules => probe_rule || id.as_str().starts_with("PC"),
        Some(_) => true,
    }
}

pub(super) fn render(ws: &Workspace, r: Report, severity: Severity) -> Finding {
    let meta = r.rule.meta();
    let template = r
        .variant
        .and_then(|v| meta.messages.get(v))
        .unwrap_or(&meta.message);
    let src = &ws.files[r.file];
    let start = src.line_col(r.span.start);
    let end = src.line_col(r.span.end.max(r.span.start));
    let help = r
        .help
        .unwrap_or_else(|| catalog::render_template(&meta.help, &r.vars));
    Finding {
        rule: r.rule,
        severity,
        file: src.display.clone(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        start: r.span.start,
        end: r.span.end.max(r.span.start),
        message: catalog::render_message(template, &r.vars) + r.note.as_deref().unwrap_or(""),
        help: (!help.is_empty()).then_some(help),
        contract: r.contract,
        pointer: r.pointer,
        sql: r.sql,
        fix: r.fix,
        related: r
            .related
            .into_iter()
            .filter_map(|(file, span, message)| {
                let f = ws.files.get(file)?;
                Some(crate::finding::Related {
                    path: f.path.clone(),
                    start: span.start,
                    end: span.end,
                    message,
                })
            })
            .collect(),
    }
}
