//! Reading and parsing one input file, isolated: a panic while loading a
//! file becomes a PC000 finding for that file instead of ending the run.
use crate::catalog::RuleId;
use crate::contracts::cache::{Cache, Stat};
use crate::contracts::load;
use crate::discover::Candidate;
use crate::emit::{Report, Sink};
use crate::settings::Settings;
use crate::source::FileClass;
use crate::source::{SourceFile, Span, Text};

/// One file after reading and parsing, before it gets its index in the
/// workspace (its reports and contracts use index 0 until then).
pub(super) struct Loaded {
    pub source: Option<SourceFile>,
    pub class: FileClass,
    pub contracts: Vec<crate::contracts::Contract>,
    pub reports: Vec<Report>,
    /// Whether the file counts as checked (YAML that is not a contract does not).
    pub checked: bool,
}

impl Loaded {
    /// A file that is not ours to check (YAML without a platcheck apiVersion).
    fn skipped(class: FileClass) -> Loaded {
        Loaded {
            source: None,
            class,
            contracts: Vec::new(),
            reports: Vec::new(),
            checked: false,
        }
    }

    /// YAML named on the command line that holds no contract: it gets a
    /// PC017 line instead of vanishing from the result.
    fn not_ours(cand: &Candidate) -> Loaded {
        let mut l = Loaded::failed(
            cand,
            RuleId::PC017,
            "no document in it is a platcheck contract (no `apiVersion: platcheck/v1`, no `kind: Cluster` or `kind: EventBoundary`)".into(),
        );
        l.checked = false;
        l
    }

    fn failed(cand: &Candidate, rule: RuleId, detail: String) -> Loaded {
        Loaded {
            source: Some(SourceFile::new(&cand.display, &cand.path, "")),
            class: cand.class,
            contracts: Vec::new(),
            reports: vec![Report::new(rule, 0, Span::empty(0)).var("detail", detail)],
            checked: true,
        }
    }
}

/// Runs `f` so that a panic becomes a PC000 finding for this file.
pub(super) fn isolated(cand: &Candidate, f: impl FnOnce() -> Loaded) -> Loaded {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Loaded::failed(
            cand,
            RuleId::PC000,
            format!("while loading the file: {}", panic_text(&payload)),
        )
    })
}

pub(super) fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Fault injection for the isolation tests: a file whose path ends with the
/// value of `PLATCHECK_INJECT_PANIC` panics while loading.
fn inject_panic(cand: &Candidate) {
    if let Some(v) = std::env::var_os("PLATCHECK_INJECT_PANIC")
        && !v.is_empty()
        && cand.display.ends_with(&*v.to_string_lossy())
    {
        panic!("injected by PLATCHECK_INJECT_PANIC for {}", cand.display);
    }
}

/// Reads, decodes and parses one candidate. A contract file that is not
/// named comes from the cache without being read when its stat is the one
/// recorded (`contracts::cache::stat`); a named file is always read.
pub(super) fn load_candidate(
    cand: &Candidate,
    settings: &Settings,
    cache: Option<&Cache>,
) -> Loaded {
    inject_panic(cand);
    let fail = |detail: String| Loaded::failed(cand, RuleId::PC001, detail);
    // One `lstat`: for a file that is not a link it is the file's stat, and
    // it is what the scope check reads.
    let wanted = (cache.is_some() && cand.class == FileClass::Yaml)
        || (cand.class == FileClass::Sql && settings.report_only.is_some());
    let link = wanted
        .then(|| std::fs::symlink_metadata(&cand.path).ok())
        .flatten();
    let plain = link.as_ref().filter(|m| !m.file_type().is_symlink());
    // Taken before the read: a change during the read makes the recorded
    // stat stale (a miss next run), never a newer stat for older text.
    let at = match (cache, cand.class) {
        (Some(_), FileClass::Yaml) => std::path::absolute(&cand.path).ok().zip(match plain {
            Some(meta) => Stat::of(meta),
            None => Stat::read(&cand.path),
        }),
        _ => None,
    };
    let in_scope = |cand: &Candidate| match plain {
        Some(meta) => settings.scope.check_as(&cand.path, meta).is_ok(),
        None => settings.scope.check(&cand.path).is_ok(),
    };
    if let (Some(cache), Some((abs, stat))) = (cache, &at)
        && !cand.named
        && stat.size() <= settings.max_file_size
        && in_scope(cand)
        && let Some((text, entry)) = cache.by_stat(abs, *stat)
    {
        let src = SourceFile::shared(&cand.display, &cand.path, text);
        return outcome(cand, src, entry, Vec::new());
    }
    if cand.class == FileClass::Sql
        && !cand.named
        && !settings.reports_on(&cand.path)
        && in_scope(cand)
    {
        return context_sql(cand, settings.max_file_size);
    }
    // Undecodable YAML is reported too, contract or not: a contract saved
    // as UTF-16 without a BOM must not pass as "not ours".
    match crate::read::read_text(&cand.path, settings.max_file_size, &settings.scope) {
        Ok(text) => load_read(
            cand,
            Text::from(text),
            cache,
            at.as_ref().map(|(p, s)| (p.as_path(), *s)),
        ),
        Err(detail) => fail(detail),
    }
}

/// A SQL file the run does not report on (a run limited to named files):
/// read only if a history holding a named file replays it. A file that
/// cannot be read then reads as empty, as it would after its PC001, which
/// this run would not show either.
fn context_sql(cand: &Candidate, max: u64) -> Loaded {
    let path = cand.path.clone();
    let text = Text::later(move || {
        crate::read::read_input(&path, max)
            .and_then(crate::read::decode)
            .unwrap_or_default()
    });
    Loaded {
        source: Some(SourceFile::shared(&cand.display, &cand.path, text)),
        class: cand.class,
        contracts: Vec::new(),
        reports: Vec::new(),
        checked: true,
    }
}

/// Parses one decoded file (a YAML file's contracts from the cache when
/// the same text loaded cleanly before).
pub(super) fn load_text(cand: &Candidate, text: &str, cache: Option<&Cache>) -> Loaded {
    load_read(cand, Text::from(text), cache, None)
}

/// As `load_text`, for a text read from `at` (absolute path, stat before
/// the read), owned: the source keeps it without a copy.
fn load_read(
    cand: &Candidate,
    text: Text,
    cache: Option<&Cache>,
    at: Option<(&std::path::Path, Stat)>,
) -> Loaded {
    let src = SourceFile::shared(&cand.display, &cand.path, text);
    let text: &str = &src.text;
    match cand.class {
        FileClass::Yaml => {
            let mut local = Sink::default();
            let mut load = || {
                let entry = load::load_file(0, &src, &mut local);
                let clean = local.reports.is_empty() && local.notes.is_empty();
                (entry, clean)
            };
            let entry = match cache {
                Some(cache) => cache.get_or_load(text, at, load),
                None => load().0,
            };
            outcome(cand, src, entry, local.reports)
        }
        FileClass::Sql | FileClass::Markdown => Loaded {
            source: Some(src),
            class: cand.class,
            contracts: Vec::new(),
            reports: Vec::new(),
            checked: true,
        },
    }
}

/// A YAML file's result from the loader's outcome.
fn outcome(
    cand: &Candidate,
    src: SourceFile,
    entry: crate::contracts::cache::Entry,
    reports: Vec<Report>,
) -> Loaded {
    match entry {
        Some(contracts) => Loaded {
            source: Some(src),
            class: cand.class,
            contracts,
            reports,
            checked: true,
        },
        None if cand.named => Loaded::not_ours(cand),
        None => Loaded::skipped(cand.class),
    }
}
