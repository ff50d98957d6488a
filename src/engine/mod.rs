//! The run: settings -> discover -> parse each input once -> workspace ->
//! rules -> suppressions and severity overrides -> sorted findings.
use crate::catalog::{self, RuleId};
use crate::discover::{self, Candidate, FileClass};
use crate::emit::{Report, Sink};
use crate::finding::{Finding, Severity};
// The outcome is model data; it is re-exported here, where it is made.
pub use crate::outcome::{Outcome, Summary, Waived, WaivedBy};
use crate::registry::{Analyses, Check, RuleCtx};
use crate::settings::{Overrides, Settings, SettingsError};
use crate::source::{SourceFile, Span};
use crate::suppress;
use crate::workspace::Workspace;
use rayon::prelude::*;

mod inspect;
mod isolate;
mod loading;
mod scope;
pub use inspect::inspect;
use loading::{Loaded, isolated, load_candidate, load_text, panic_text};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    run_overlay(paths, cwd, overrides, &BTreeMap::new())
}

/// As `run`, with the text of some files taken from `overlay` (keyed by
/// normalised absolute path) instead of the disk: the editor's unsaved
/// buffers. Files are still found by walking the disk.
pub fn run_overlay(
    paths: &[PathBuf],
    cwd: &Path,
    overrides: &Overrides,
    overlay: &BTreeMap<PathBuf, String>,
) -> Result<Outcome, RunError> {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths.to_vec()
    };
    let mut settings = Settings::load(&search_start(&paths, cwd), cwd, overrides)?;
    let (walk, scope) = scope::plan(&paths, cwd, &settings);
    settings.report_only.clone_from(&scope);
    settings.admit_named(&paths, cwd);
    let mut found = discover::discover(&walk, cwd, &settings).map_err(RunError::Usage)?;
    // The walk widened to the whole root for context; only a run that named
    // the root judges whether each include pattern found something.
    if scope.is_some() {
        found.unmatched_include.clear();
    }
    // A run that names files inside the repository (a pre-commit hook) loads
    // the whole repository for context: contracts that loaded cleanly before
    // come from the repository's cache (contracts::cache, beside the config).
    // A whole-repository run parses everything, as it always did.
    let cache = scope
        .as_ref()
        .and(settings.config.as_ref())
        .and_then(|c| crate::contracts::cache::Cache::open(&cwd.join(&settings.root), &c.text));
    // Files are read and parsed in parallel; merging in discovery order keeps
    // the output independent of scheduling.
    let loaded: Vec<Loaded> = found
        .files
        .par_iter()
        .map(|cand| {
            let open = (!overlay.is_empty())
                .then(|| overlay.get(&crate::source::normalize(&cwd.join(&cand.path))))
                .flatten();
            match open {
                Some(text) => isolated(cand, || load_text(cand, text, cache.as_ref())),
                None => isolated(cand, || load_candidate(cand, &settings, cache.as_ref())),
            }
        })
        .collect();
    if let Some(cache) = cache {
        cache.save();
    }
    let mut outcome = analyze(settings, cwd, &found, loaded)?;
    if let Some(scope) = scope {
        scope::restrict(&mut outcome, &scope, cwd);
    }
    Ok(outcome)
}

/// Checks in-memory files (display path, class, text) as if they had been
/// discovered on disk: for fuzzing and embedding. No config is searched for.
pub fn run_sources(
    sources: Vec<(String, FileClass, String)>,
    settings: Settings,
    cwd: &Path,
) -> Result<Outcome, RunError> {
    let loaded: Vec<Loaded> = sources
        .into_par_iter()
        .map(|(display, class, text)| {
            let cand = Candidate {
                path: PathBuf::from(&display),
                display,
                class,
                named: false,
            };
            isolated(&cand, || load_text(&cand, &text, None))
        })
        .collect();
    analyze(settings, cwd, &discover::Discovered::default(), loaded)
}

fn analyze(
    mut settings: Settings,
    cwd: &Path,
    found: &discover::Discovered,
    loaded: Vec<Loaded>,
) -> Result<Outcome, RunError> {
    let mut ws = Workspace::default();
    let mut sink = Sink::default();
    let config = settings.config.as_ref().map(|c| c.display.clone());
    if let Some(cfg) = settings.config.take() {
        ws.add_file(cfg, None);
        sink.reports.append(&mut settings.problems);
    }
    let unmatched = discover::unmatched_include_reports(found, &settings, &sink.reports);
    sink.reports.extend(unmatched);
    let listed = [
        (RuleId::PC001, &found.problems),
        (RuleId::PC017, &found.unchecked),
    ];
    for (rule, problems) in listed {
        for problem in problems {
            let file = ws.add_file(
                SourceFile::new(&problem.display, &problem.display, ""),
                None,
            );
            sink.push(Report::new(rule, file, Span::empty(0)).var("detail", &problem.reason));
        }
    }
    let checked = add_loaded(&mut ws, &mut sink, loaded);
    duplicate_names(&ws, &mut sink);
    isolate::prepare(&mut ws, &settings, cwd, &mut sink)?;

    // The analyses the rules share live for this run only.
    let analyses = Analyses::default();
    let ctx = RuleCtx {
        ws: &ws,
        settings: &settings,
        analyses: &analyses,
    };
    // `platcheck probe` runs the probe family only (the loader's PC
    // findings still come through: a contract it cannot read is not probed).
    let only_probe = settings.probe.as_ref().is_some_and(|p| p.only_probe_rules);
    let per_rule: Vec<Sink> = crate::rules::entries()
        .par_iter()
        .filter(|e| settings.severity(e.id).is_some())
        .filter(|e| !only_probe || crate::rules::pr::covers(e.id))
        .filter_map(|e| match e.check {
            Check::Workspace(check) => Some((e.id, check)),
            Check::Engine => None,
        })
        .map(|(id, check)| {
            let mut local = Sink::default();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                isolate::inject_rule_panic(id);
                check(&ctx, &mut local)
            }));
            match result {
                Ok(()) => local,
                // One broken rule must not take the run down: report it and go on.
                // With no file to point at, it still reaches the output: the
                // run gets a file of its own below.
                Err(payload) => {
                    let mut failed = Sink::default();
                    failed.push(Report::new(RuleId::PC000, 0, Span::empty(0)).var(
                        "detail",
                        format!("rule {id} failed: {}", panic_text(&payload)),
                    ));
                    failed
                }
            }
        })
        .collect();
    for mut local in per_rule {
        sink.reports.append(&mut local.reports);
        sink.notes.append(&mut local.notes);
    }
    for r in &mut sink.reports {
        r.fix = crate::fix::compute(&ctx, r);
    }
    // With no file to point at, a rule's finding still reaches the output:
    // the run gets a file of its own (after the rules, which borrow `ws`).
    if ws.files.is_empty() && !sink.reports.is_empty() {
        isolate::run_file(&mut ws);
    }
    let mut notes = std::mem::take(&mut sink.notes);
    notes.dedup();
    let (mut findings, mut waived, suppressions) = finish(&ws, &settings, sink.reports);
    if let Some(path) = settings.baseline.clone() {
        let (baseline, text) =
            crate::baseline::read(&path, &settings.scope).map_err(RunError::Usage)?;
        let display = crate::source::display_path(&path, cwd);
        let (hidden, stale) = crate::baseline::apply(
            &mut findings,
            &mut ws,
            &baseline,
            &settings.root,
            (&display, &path, &text),
        );
        waived.extend(hidden.into_iter().map(|(finding, print)| {
            let line = baseline_line(&text, &print);
            Waived {
                finding,
                by: WaivedBy::Baseline {
                    file: display.clone(),
                    line,
                },
            }
        }));
        if let Some(r) = stale
            && let Some(severity) = settings.severity(r.rule)
        {
            findings.push(render(&ws, r, severity));
            findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        }
    }
    if let Some(base) = &settings.changed_since {
        let changed = crate::changed::since(base, cwd).map_err(RunError::Usage)?;
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let changed: std::collections::BTreeSet<PathBuf> =
            changed.iter().map(|p| canonical(p)).collect();
        let in_pr: std::collections::BTreeSet<&str> = ws
            .files
            .iter()
            .filter(|s| changed.contains(&canonical(&s.path)))
            .map(|s| s.display.as_str())
            .collect();
        findings.retain(|f| in_pr.contains(f.file.as_str()));
    }
    let mut summary = Summary {
        files: checked,
        suppressed: waived.len(),
        ..Summary::default()
    };
    for f in &findings {
        match f.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Notice => summary.notices += 1,
        }
    }
    let rules_off = RuleId::ALL
        .iter()
        .copied()
        .filter(|&r| settings.severity(r).is_none())
        .collect();
    let (files, classes, contracts) = ws.into_parts();
    Ok(Outcome {
        findings,
        summary,
        today: settings.today,
        today_source: settings.today_source,
        fail_on: settings.fail_on,
        root: settings.root,
        baseline: settings.baseline,
        config,
        base: settings.base,
        changed_since: settings.changed_since,
        files,
        classes,
        contracts,
        rules_off,
        suppressions,
        notes,
        waived,
        scope: None,
    })
}

/// Adds the loaded files to the workspace (their contracts and reports
/// get the file's index); returns how many count as checked.
fn add_loaded(ws: &mut Workspace, sink: &mut Sink, loaded: Vec<Loaded>) -> usize {
    let mut checked = 0;
    for l in loaded {
        checked += usize::from(l.checked);
        let Some(src) = l.source else { continue };
        let file = ws.add_file(src, Some(l.class));
        match l.class {
            FileClass::Sql => ws.sql.push(file),
            FileClass::Markdown => ws.markdown.push(file),
            FileClass::Yaml => {}
        }
        ws.contracts.extend(l.contracts.into_iter().map(|mut c| {
            c.file = file;
            c
        }));
        sink.reports.extend(l.reports.into_iter().map(|mut r| {
            r.file = file;
            r
        }));
    }
    checked
}

/// The line of a baseline entry (its `fingerprint` key), for the report.
fn baseline_line(text: &str, print: &str) -> usize {
    let needle = format!("\"{print}\"");
    text.lines()
        .position(|l| l.contains("\"fingerprint\"") && l.contains(&needle))
        .map_or(1, |i| i + 1)
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
                        .related(
                            orig.file,
                            orig.span_for("/metadata/name"),
                            format!("{} `{}` is first defined here", c.kind.as_str(), c.name),
                        )
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
fn finish(
    ws: &Workspace,
    settings: &Settings,
    reports: Vec<Report>,
) -> (Vec<Finding>, Vec<Waived>, Vec<suppress::Suppression>) {
    let mut sups = Vec::new();
    for (i, src) in ws.files.iter().enumerate() {
        let class = ws.classes[i].unwrap_or(FileClass::Yaml);
        sups.extend(suppress::scan(i, src, class, settings.today));
    }
    if settings.no_inline_suppressions {
        // Audits see everything; the suppressions stay listed, unmatched.
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
    let mut findings = Vec::new();
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
        message: catalog::render_template(template, &r.vars) + r.note.as_deref().unwrap_or(""),
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
