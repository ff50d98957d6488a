//! Settings: `platcheck.yaml` (found by walking up from the checked
//! directory), overridden by command-line flags.
use crate::catalog::{self, RuleId};
use crate::contracts::schema;
use crate::contracts::yaml::Node;
use crate::emit::Report;
use crate::finding::Severity;
// Part of the outcome (main and the printers read them); set from here.
pub use crate::outcome::{FailOn, TodaySource};
use crate::source::SourceFile;
pub use jiff::civil::Date;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// Defined with the reading and writing of files, which need them too.
pub use crate::read::{CONFIG_NAME, DEFAULT_MAX_FILE_SIZE};

mod file;
mod selection;
pub use selection::FileOverride;

pub const DEFAULT_PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// PATH_MAX on Linux: no path a glob could match is longer.
const MAX_GLOB_BYTES: usize = 4096;

/// What the command line can override.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub config: Option<PathBuf>,
    pub today: Option<Date>,
    pub fail_on: Option<FailOn>,
    /// Hide the findings recorded in this baseline file.
    pub baseline: Option<PathBuf>,
    /// Ignore inline suppressions (audits).
    pub no_inline_suppressions: bool,
    /// Report only findings in files changed since this git ref.
    pub changed_since: Option<String>,
    /// `--base <git-ref>`: the revision EV053 compares payload schemas with.
    pub base: Option<String>,
    /// `--follow-external-links`: read through links that leave the repository.
    pub follow_external_links: bool,
    /// `--select`: only these rules run (replaces the config's `select`).
    pub select: Vec<String>,
    /// `--ignore`: these rules do not run (added to the config's `ignore`).
    pub ignore: Vec<String>,
    /// `platcheck probe` / `check --probe`: compare contracts with the running systems.
    pub probe: Option<ProbeRequest>,
}

/// What to probe: `--target NAME=URL` flags, and whether only the probe
/// rules (PR) run (`platcheck probe`) or every rule (`check --probe`).
#[derive(Clone, Debug, Default)]
pub struct ProbeRequest {
    pub targets: Vec<(String, String)>,
    pub only_probe_rules: bool,
}

/// The probe settings of a run: the request plus the config's `probe:`.
#[derive(Clone, Debug)]
pub struct ProbeSettings {
    pub targets: Vec<(String, String)>,
    pub only_probe_rules: bool,
    /// Config `probe.targets`: target name -> environment variable.
    pub target_envs: BTreeMap<String, String>,
    pub timeout: std::time::Duration,
}

#[derive(Debug, Clone)]
pub struct SqlSettings {
    pub dialect: String,
    pub version: String,
    pub large_table_rows: u128,
    /// `sql.unknown_table_size: small`: undeclared tables count as small
    /// (by default they count as large, and blocking statements are errors).
    pub unknown_small: bool,
    pub assume_in_transaction: bool,
    /// `sql.layout`: how migration directories are laid out; `None` detects it.
    pub layout: Option<String>,
    /// `sql.tool`: the migration tool, which decides the transactions.
    pub tool: Option<String>,
    /// `sql.lint_down`: analyse down/undo/revert/rollback scripts.
    pub lint_down: bool,
}

#[derive(Debug)]
pub struct Settings {
    /// The config file, when one was found.
    pub config: Option<SourceFile>,
    /// The parsed config document (for engines that read their own sections).
    pub config_root: Option<Node>,
    /// Include/exclude globs are relative to this directory.
    pub root: PathBuf,
    pub today: Date,
    pub today_source: TodaySource,
    pub fail_on: FailOn,
    pub include: Vec<String>,
    /// Where each `include` pattern is written: (pointer, span) in the config.
    pub include_at: Vec<(String, crate::source::Span)>,
    pub exclude: Vec<String>,
    pub max_file_size: u64,
    /// The baseline file (`--baseline`, or `baseline:` in the config).
    pub baseline: Option<PathBuf>,
    pub no_inline_suppressions: bool,
    pub changed_since: Option<String>,
    pub sql: SqlSettings,
    /// Severity overrides; `None` turns a rule off.
    pub severities: BTreeMap<RuleId, Option<Severity>>,
    /// Per-file severity overrides (`overrides:`), in config order.
    pub file_overrides: Vec<FileOverride>,
    /// The config's `select:` until `--select` (which replaces it) is known.
    config_select: Option<Vec<RuleId>>,
    /// Rules `--select`/`--ignore` turned off: no `overrides:` entry brings
    /// them back.
    flags_off: std::collections::BTreeSet<RuleId>,
    /// Problems in the config file (PC003, PC008), against file index 0.
    pub problems: Vec<Report>,
    /// `--base <git-ref>` (EV053); `None` leaves schema compatibility unchecked.
    pub base: Option<String>,
    /// Where inputs may be read from (the config root, the named paths).
    pub scope: crate::read::Scope,
    /// Named paths inside a larger workspace (normalised, absolute): only
    /// their findings are reported, so analyses may skip what cannot reach
    /// them (a migration history with no named file). `None`: everything.
    pub report_only: Option<Vec<PathBuf>>,
    /// Set when the run probes the running systems.
    pub probe: Option<ProbeSettings>,
    /// Config `probe:` values, kept until the run asks to probe.
    probe_config: (BTreeMap<String, String>, std::time::Duration),
}

/// Errors that stop the run before any check (exit code 2).
#[derive(Debug)]
pub struct SettingsError(pub String);

impl Settings {
    /// Finds and loads the config. `start` is where the upward search begins.
    pub fn load(start: &Path, cwd: &Path, ov: &Overrides) -> Result<Settings, SettingsError> {
        let path = match &ov.config {
            Some(p) => {
                if !p.is_file() {
                    return Err(SettingsError(format!(
                        "--config {}: no such file",
                        p.display()
                    )));
                }
                Some(p.clone())
            }
            None => find_config(start),
        };
        let mut s = Settings::defaults(cwd.to_path_buf());
        if let Some(path) = path {
            let bytes = crate::read::read_input(&path, DEFAULT_MAX_FILE_SIZE)
                .map_err(|e| SettingsError(format!("cannot read {}: {e}", path.display())))?;
            let text = crate::read::decode(bytes)
                .map_err(|e| SettingsError(format!("cannot read {}: {e}", path.display())))?;
            let display = crate::source::display_path(&path, cwd);
            let src = SourceFile::new(display, &path, &text);
            s.root = path.parent().map_or(cwd.to_path_buf(), Path::to_path_buf);
            s.apply_file(&src);
            s.config = Some(src);
        }
        if let Some(d) = ov.today {
            s.today = d;
            s.today_source = TodaySource::Flag;
        }
        if let Some(f) = ov.fail_on {
            s.fail_on = f;
        }
        if let Some(b) = &ov.baseline {
            s.baseline = Some(b.clone());
        }
        s.select_from_flags(ov)?;
        s.no_inline_suppressions = ov.no_inline_suppressions;
        s.changed_since = ov.changed_since.clone();
        s.base.clone_from(&ov.base);
        s.scope = crate::read::Scope::new(&s.root, ov.follow_external_links);
        // A baseline named on the command line was asked for, wherever it is.
        if let Some(dir) = ov.baseline.as_ref().and_then(|b| b.parent()) {
            s.scope.add_root(dir);
        }
        if let Some(p) = &ov.probe {
            s.probe = Some(ProbeSettings {
                targets: p.targets.clone(),
                only_probe_rules: p.only_probe_rules,
                target_envs: s.probe_config.0.clone(),
                timeout: s.probe_config.1,
            });
        }
        Ok(s)
    }

    /// Whether the run reports on this file: always, unless named paths
    /// limit the report (`report_only`). A run-level note counts only what
    /// it reports on ("not checked for 1 event boundary", not the 9 of the
    /// repository, when one contract is named).
    pub fn reports_on(&self, path: &Path) -> bool {
        self.report_only.as_ref().is_none_or(|named| {
            let p = crate::source::normalize(path);
            named.iter().any(|n| p.starts_with(n))
        })
    }

    /// The paths named on the command line join the scope (see `Scope::admit`).
    pub fn admit_named(&mut self, paths: &[PathBuf], cwd: &Path) {
        self.scope.admit(paths, cwd);
    }

    /// Settings from a config text alone (no file search): the fuzz target
    /// and tests use it; problems land in `problems` like for a real file.
    pub fn from_source(src: SourceFile) -> Settings {
        let mut s = Settings::defaults(PathBuf::from("."));
        s.apply_file(&src);
        if let Some(keep) = s.config_select.take() {
            s.keep_only(&keep);
        }
        s.config = Some(src);
        s
    }

    pub fn defaults(root: PathBuf) -> Settings {
        Settings {
            config: None,
            config_root: None,
            root,
            today: system_today(),
            today_source: TodaySource::System,
            fail_on: FailOn::Error,
            include: Vec::new(),
            include_at: Vec::new(),
            exclude: Vec::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            baseline: None,
            no_inline_suppressions: false,
            changed_since: None,
            sql: SqlSettings {
                dialect: "postgresql".into(),
                version: "15".into(),
                large_table_rows: 1_000_000,
                unknown_small: false,
                assume_in_transaction: false,
                layout: None,
                tool: None,
                lint_down: true,
            },
            severities: BTreeMap::new(),
            file_overrides: Vec::new(),
            config_select: None,
            flags_off: std::collections::BTreeSet::new(),
            problems: Vec::new(),
            base: None,
            scope: crate::read::Scope::default(),
            report_only: None,
            probe: None,
            probe_config: (BTreeMap::new(), DEFAULT_PROBE_TIMEOUT),
        }
    }

    /// The effective severity of a rule, `None` when it is turned off.
    pub fn severity(&self, rule: RuleId) -> Option<Severity> {
        match self.severities.get(&rule) {
            Some(o) => *o,
            None => Some(rule.meta().severity),
        }
    }

    pub(super) fn problem(
        &mut self,
        rule: RuleId,
        span: crate::source::Span,
        pointer: &str,
        detail: String,
    ) -> Report {
        let r = Report::new(rule, 0, span)
            .pointer(pointer)
            .var("detail", detail);
        self.problems.push(r.clone());
        r
    }
}

/// The message of a schema issue, as the rule it maps to would word it.
pub fn describe_issue(issue: &schema::Issue) -> String {
    let meta = issue.rule.meta();
    let template = meta.messages.get(issue.variant).unwrap_or(&meta.message);
    catalog::render_template(template, &issue.vars)
}

/// Walks up from `start` looking for `platcheck.yaml`.
pub fn find_config(start: &Path) -> Option<PathBuf> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        let candidate = d.join(CONFIG_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

pub fn system_today() -> Date {
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date()
}
