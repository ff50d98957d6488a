//! The run: settings -> discover -> parse each input once -> workspace ->
//! rules -> suppressions and severity overrides -> sorted findings.
use crate::catalog::{self, RuleId};
use crate::contracts::load;
use crate::discover::{self, Candidate, FileClass};
use crate::emit::{Report, Sink};
use crate::finding::{Finding, Severity};
use crate::registry::{self, Check, RuleCtx};
use crate::settings::{Overrides, Settings, SettingsError, TodaySource};
use crate::source::{SourceFile, Span};
use crate::suppress;
use crate::workspace::Workspace;
use jiff::civil::Date;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    pub workspace: Workspace,
    pub settings: Settings,
}

#[derive(Debug)]
pub enum RunError {
    Usage(String),
}

impl From<SettingsError> for RunError {
    fn from(e: SettingsError) -> Self {
        RunError::Usage(e.0)
    }
}

/// Where the config search starts: the first given directory (or the
/// directory of the first given file), else the working directory.
fn search_start(paths: &[PathBuf], cwd: &Path) -> PathBuf {
    let first = paths.first().map(|p| {
        if p.is_absolute() {
            p.clone()
        } else {
            cwd.join(p)
        }
    });
    match first {
        Some(p) if p.is_dir() => p,
        Some(p) => p.parent().map_or(cwd.to_path_buf(), Path::to_path_buf),
        None => cwd.to_path_buf(),
    }
}

pub fn run(paths: &[PathBuf], cwd: &Path, overrides: &Overrides) -> Result<Outcome, RunError> {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths.to_vec()
    };
    let mut settings = Settings::load(&search_start(&paths, cwd), cwd, overrides)?;
    let found = discover::discover(&paths, cwd, &settings).map_err(RunError::Usage)?;

    let mut ws = Workspace::default();
    let mut sink = Sink::default();
    if let Some(cfg) = settings.config.take() {
        ws.add_file(cfg, None);
        sink.reports.append(&mut settings.problems);
    }
    for problem in &found.problems {
        let file = ws.add_file(
            SourceFile::new(&problem.display, &problem.display, ""),
            None,
        );
        sink.push(Report::new(RuleId::PC001, file, Span::empty(0)).var("detail", &problem.reason));
    }
    let mut checked = 0;
    for cand in &found.files {
        if load_candidate(cand, &settings, &mut ws, &mut sink) {
            checked += 1;
        }
    }
    duplicate_names(&ws, &mut sink);

    let ctx = RuleCtx {
        ws: &ws,
        settings: &settings,
    };
    for entry in registry::entries() {
        if let Check::Workspace(check) = entry.check
            && settings.severity(entry.id).is_some()
        {
            check(&ctx, &mut sink);
        }
    }

    let (findings, suppressed) = finish(&ws, &settings, sink.reports);
    let mut summary = Summary {
        files: checked,
        suppressed,
        ..Summary::default()
    };
    for f in &findings {
        match f.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
    }
    Ok(Outcome {
        findings,
        summary,
        today: settings.today,
        today_source: settings.today_source,
        workspace: ws,
        settings,
    })
}

/// Reads, decodes and parses one candidate. Returns whether it was checked
/// (YAML that is not a contract is left alone and not counted).
fn load_candidate(
    cand: &Candidate,
    settings: &Settings,
    ws: &mut Workspace,
    sink: &mut Sink,
) -> bool {
    let fail = |ws: &mut Workspace, sink: &mut Sink, detail: String| {
        let file = ws.add_file(
            SourceFile::new(&cand.display, &cand.path, ""),
            Some(cand.class),
        );
        sink.push(Report::new(RuleId::PC001, file, Span::empty(0)).var("detail", detail));
        true
    };
    let size = match std::fs::metadata(&cand.path) {
        Ok(m) => m.len(),
        Err(e) => return fail(ws, sink, discover::io_reason(&e)),
    };
    if size > settings.max_file_size {
        return fail(
            ws,
            sink,
            format!(
                "skipped: {} bytes is larger than the {} byte limit (max_file_size in platcheck.yaml)",
                crate::contracts::units::thousands(i128::from(size)),
                crate::contracts::units::thousands(i128::from(settings.max_file_size))
            ),
        );
    }
    let bytes = match std::fs::read(&cand.path) {
        Ok(b) => b,
        Err(e) => return fail(ws, sink, discover::io_reason(&e)),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            if cand.class == FileClass::Yaml
                && !load::looks_like_contract(&String::from_utf8_lossy(e.as_bytes()))
            {
                return false;
            }
            let at = e.utf8_error().valid_up_to();
            return fail(
                ws,
                sink,
                format!("not valid UTF-8 (first invalid byte at offset {at})"),
            );
        }
    };
    let src = SourceFile::new(&cand.display, &cand.path, &text);
    match cand.class {
        FileClass::Yaml => {
            let file = ws.files.len();
            let mut local = Sink::default();
            match load::load_file(file, &src, &mut local) {
                Some(contracts) => {
                    ws.add_file(src, Some(FileClass::Yaml));
                    ws.contracts.extend(contracts);
                    sink.reports.append(&mut local.reports);
                    true
                }
                None => false,
            }
        }
        FileClass::Sql => {
            let file = ws.add_file(src, Some(FileClass::Sql));
            ws.sql.push(file);
            true
        }
        FileClass::Markdown => {
            let file = ws.add_file(src, Some(FileClass::Markdown));
            ws.markdown.push(file);
            true
        }
    }
}

/// PC007: two contracts of one kind with one name.
fn duplicate_names(ws: &Workspace, sink: &mut Sink) {
    let mut first: BTreeMap<(crate::contracts::Kind, &str), &crate::contracts::Contract> =
        BTreeMap::new();
    for c in &ws.contracts {
        if c.name.is_empty() {
            continue;
        }
        match first.get(&(c.kind, c.name.as_str())) {
            Some(orig) => {
                let at = ws.files[orig.file].line_col(orig.span_for("/metadata/name").start);
                sink.push(
                    c.report(RuleId::PC007, "/metadata/name")
                        .var("kind", c.kind.as_str())
                        .var("name", &c.name)
                        .var(
                            "first",
                            format!("{}:{}", ws.files[orig.file].display, at.line),
                        ),
                );
            }
            None => {
                first.insert((c.kind, c.name.as_str()), c);
            }
        }
    }
}

/// Applies suppressions and severity overrides and renders the findings.
fn finish(ws: &Workspace, settings: &Settings, reports: Vec<Report>) -> (Vec<Finding>, usize) {
    let mut sups = Vec::new();
    for (i, src) in ws.files.iter().enumerate() {
        let class = ws.classes[i].unwrap_or(FileClass::Yaml);
        sups.extend(suppress::scan(i, src, class, settings.today));
    }
    let mut findings = Vec::new();
    let mut suppressed = 0;
    for r in reports {
        let Some(mut severity) = settings.severity(r.rule) else {
            continue;
        };
        // A per-finding severity applies unless the config overrides the rule.
        if let Some(s) = r.severity
            && !settings.severities.contains_key(&r.rule)
        {
            severity = s;
        }
        let line = ws.files[r.file].line_col(r.span.start).line;
        if suppress::matches(&mut sups, r.file, line, r.rule) {
            suppressed += 1;
            continue;
        }
        findings.push(render(ws, r, severity));
    }
    for r in suppress::defects(&sups) {
        if let Some(severity) = settings.severity(r.rule) {
            findings.push(render(ws, r, severity));
        }
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
    (findings, suppressed)
}

fn render(ws: &Workspace, r: Report, severity: Severity) -> Finding {
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
        message: catalog::render_template(template, &r.vars),
        help: (!help.is_empty()).then_some(help),
        contract: r.contract,
        pointer: r.pointer,
        sql: r.sql,
    }
}
