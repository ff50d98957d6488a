//! The run: settings -> discover -> parse each input once -> workspace ->
//! rules -> suppressions and severity overrides -> sorted findings.
use crate::catalog::RuleId;
use crate::discover::{self, Candidate, FileClass};
use crate::emit::{Report, Sink};
use crate::finding::Severity;
// The outcome is model data; it is re-exported here, where it is made.
pub use crate::outcome::{FileFindings, Outcome, Summary, Waived, WaivedBy};
use crate::registry::{Analyses, RuleCtx};
use crate::settings::{Overrides, Settings, SettingsError};
use crate::source::{SourceFile, Span};
use crate::workspace::Workspace;
use rayon::prelude::*;

mod assemble;
mod finish;
mod inspect;
mod isolate;
mod loading;
mod post;
mod rules;
mod scope;
pub use inspect::inspect;
use loading::{Loaded, isolated, load_candidate, load_text};
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
    if let Some(named) = &scope {
        found.unmatched_include.clear();
        let empty = scope::empty_named_dirs(named, &settings.root, &found, cwd);
        found.unchecked.extend(empty);
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
    let checked = assemble::add_loaded(&mut ws, &mut sink, loaded);
    assemble::duplicate_names(&ws, &mut sink);
    isolate::prepare(&mut ws, &settings, cwd, &mut sink)?;

    // The analyses the rules share live for this run only.
    let analyses = Analyses::default();
    let ctx = RuleCtx {
        ws: &ws,
        settings: &settings,
        analyses: &analyses,
    };
    // A run limited to named files runs, fixes, renders and scans
    // suppressions only for them (`scope::restrict` would drop the rest
    // afterwards). With a baseline too: only the shown files' entries can
    // be stale (`post::baseline`).
    let shown = settings
        .report_only
        .as_ref()
        .map(|named| scope::shown(&ws.files, named, cwd, config.as_deref()));
    let skip = shown.as_ref().map_or_else(rules::Skip::default, |shown| {
        rules::skip_for(&ws, shown, config.as_deref())
    });
    // Per-contract rules then judge only the named files' contracts.
    if let Some(shown) = &shown {
        ws.judge_only(shown, config.as_deref());
    }
    rules::run(&ctx, &mut sink, skip);
    if let Some(shown) = &shown {
        sink.reports
            .retain(|r| r.rule == RuleId::PC000 || shown.get(r.file).copied().unwrap_or(true));
    }
    for r in &mut sink.reports {
        r.fix = crate::fix::compute(&ctx, r).map(Box::new);
    }
    // Nothing reads the analyses after the rules and the fixes: the SQL
    // analysis alone holds every statement of every file, so it goes
    // before the findings are rendered rather than beside them.
    drop(analyses);
    crate::memory::release_freed();
    // With no file to point at, a rule's finding still reaches the output:
    // the run gets a file of its own (after the rules, which borrow `ws`).
    if ws.files.is_empty() && !sink.reports.is_empty() {
        isolate::run_file(&mut ws);
    }
    let mut notes = std::mem::take(&mut sink.notes);
    notes.dedup();
    let (mut findings, mut waived, suppressions) =
        finish::finish(&ws, &settings, sink.reports, &mut notes, shown.as_deref());
    post::baseline(
        &settings,
        cwd,
        &mut ws,
        (&mut findings, &mut waived),
        shown.as_deref(),
    )?;
    post::changed_only(&settings, cwd, &ws, &mut findings)?;
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
