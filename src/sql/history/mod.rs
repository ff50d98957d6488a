//! The migration history as the migration tool sees it: which SQL files (or
//! sections of one file) form one database's history, in the order the tool
//! runs them, which of them are schema dumps (the starting schema), which
//! are down/undo/revert/rollback scripts and which forward step each one
//! undoes, and whether the tool wraps each step in a transaction.
//!
//! The replay itself (one schema model per history, downs judged on a copy
//! of the model after their own up step) is `analysis::analyze`.
mod diesel;
mod flyway;
mod layout;
mod liquibase;
mod names;
mod plain;
mod sections;
mod sqitch;
mod tool;
mod versioned;

pub use flyway::runs_outside_transaction as flyway_runs_outside_transaction;
pub use layout::Layout;
pub use names::Flavor;
pub use tool::{Tool, TxMode, TxPolicy};

use super::context::{self, FileCtx, Origin};
use crate::catalog::RuleId;
use crate::settings::Settings;
use crate::source::Span;
use crate::source::normalize;
use crate::workspace::Workspace;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A bad or skipped input found while reading the history (PC012–PC016).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub rule: RuleId,
    pub file: usize,
    pub span: Span,
    pub detail: String,
}

/// One script the tool runs: a whole file, or part of one (a dbmate
/// section, a Liquibase changeset or its `--rollback` lines).
#[derive(Debug, Clone, Default)]
pub struct Unit {
    pub file: usize,
    /// The byte ranges of the file that belong to this unit; `None` is the whole file.
    pub keep: Option<Vec<Span>>,
    /// Ranges the tool sends as one statement (goose `StatementBegin`/`End`).
    pub blocks: Vec<Span>,
    /// The tool's own opt-out of its transaction (a directive or sidecar file).
    pub no_tx: bool,
    /// How messages name this unit (`V3__add.sql`, "the `-- migrate:down` section").
    pub label: String,
}

impl Unit {
    pub fn whole(file: usize, label: impl Into<String>) -> Unit {
        Unit {
            file,
            label: label.into(),
            ..Unit::default()
        }
    }

    /// The text the statement splitter sees and the file offset it starts
    /// at: the stretch of the file the unit spans, with whatever inside it
    /// is not the unit (a `--rollback` prefix, another changeset) blanked,
    /// newlines kept, so offsets map back to the file by adding `base`.
    pub fn window<'a>(&self, full: &'a str) -> (usize, Cow<'a, str>) {
        let Some(keep) = &self.keep else {
            return (0, Cow::Borrowed(full));
        };
        let clamp = |at: usize| floor_char(full, at.min(full.len()));
        let (Some(lo), Some(hi)) = (
            keep.iter().map(|s| s.start).min(),
            keep.iter().map(|s| s.end).max(),
        ) else {
            return (0, Cow::Borrowed(""));
        };
        let (lo, hi) = (clamp(lo), clamp(hi));
        if keep.len() == 1 {
            return (lo, Cow::Borrowed(&full[lo..hi]));
        }
        let mut out = String::with_capacity(hi - lo);
        let mut spans = keep.clone();
        spans.sort();
        let mut next = 0;
        for (i, c) in full[lo..hi].char_indices() {
            let at = lo + i;
            while next < spans.len() && spans[next].end <= at {
                next += 1;
            }
            let kept = spans.get(next).is_some_and(|s| s.start <= at);
            if c == '\n' || kept {
                out.push(c);
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        (lo, Cow::Owned(out))
    }
}

/// The char boundary at or before `at`.
fn floor_char(s: &str, mut at: usize) -> usize {
    while at > 0 && !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One forward step and the scripts that undo it.
#[derive(Debug, Clone)]
pub struct Step {
    pub up: Unit,
    pub downs: Vec<Unit>,
    /// The change this step is part of, when the tool splits one change
    /// into several steps that always ship together (popx numbers the
    /// steps of one change: `<14-digit timestamp><6-digit step>`).
    pub change: Option<String>,
}

impl Step {
    pub fn new(up: Unit, downs: Vec<Unit>) -> Step {
        Step {
            up,
            downs,
            change: None,
        }
    }
}

/// One database's history: the files of one Cluster's `migrations.path`,
/// or of one migrations directory.
#[derive(Debug)]
pub struct Group {
    /// The directory, as reported (`migrations`, `cluster:orders-db`).
    pub name: String,
    pub layout: Layout,
    /// Schema dumps and baselines: the starting schema, never linted.
    pub baseline: Vec<Unit>,
    pub steps: Vec<Step>,
    pub tx: TxPolicy,
}

#[derive(Debug, Default)]
pub struct History {
    pub groups: Vec<Group>,
    pub problems: Vec<Problem>,
    /// The context of every SQL file (dialect, version, cluster, tables).
    pub ctx: HashMap<usize, FileCtx>,
}

/// A file of a group, as the layout readers see it.
#[derive(Debug, Clone)]
pub(crate) struct Input<'a> {
    pub file: usize,
    /// The path below the group's directory, `/`-separated.
    pub rel: String,
    /// The file name without its dialect token (`1_x.postgres.up.sql` → `1_x.up.sql`).
    pub name: String,
    pub flavor: Option<Flavor>,
    pub text: &'a str,
}

impl Input<'_> {
    /// The directory part of `rel` (`""` at the group's root).
    pub fn dir(&self) -> &str {
        self.rel.rsplit_once('/').map_or("", |(d, _)| d)
    }
}

/// What a layout reader produces for one group.
pub(crate) struct Build<'p> {
    pub flavor: Flavor,
    pub steps: Vec<Step>,
    pub baseline: Vec<Unit>,
    pub problems: &'p mut Vec<Problem>,
    /// Tool project configuration files (`flyway.conf`) at or above the group.
    pub projects: Vec<Input<'p>>,
    /// Flyway's `mixed = true`: a migration with a statement that cannot
    /// run in a transaction runs outside one entirely.
    pub flyway_mixed: bool,
}

impl Build<'_> {
    pub fn problem(&mut self, rule: RuleId, file: usize, span: Span, detail: impl Into<String>) {
        self.problems.push(Problem {
            rule,
            file,
            span,
            detail: detail.into(),
        });
    }
    /// SQL before the first section of a file, which the tool never runs:
    /// reported at its first statement.
    pub fn stray_prefix(&mut self, inp: &Input, end: usize, what: &str) {
        let head = &inp.text[..end.min(inp.text.len())];
        let Some(p) = crate::sql::split::split(head, crate::sql::Dialect::Postgres)
            .into_iter()
            .find(|p| p.is_statement())
        else {
            return;
        };
        self.problem(
            RuleId::PC015,
            inp.file,
            p.body,
            format!("this statement comes before {what}: the tool does not run it"),
        );
    }
    /// A problem about a file as a whole, reported at its first line.
    pub fn file_problem(&mut self, rule: RuleId, inp: &Input, detail: impl Into<String>) {
        let first = inp.text.find('\n').unwrap_or(inp.text.len());
        let first = inp.text[..first].trim_end_matches('\r').len();
        self.problem(rule, inp.file, Span::new(0, first), detail);
    }
}

/// Reads every SQL file of the workspace into histories.
pub fn plan(ws: &Workspace, settings: &Settings) -> History {
    let owners = context::migration_owners(ws, settings);
    let paths: HashSet<PathBuf> = ws
        .sql
        .iter()
        .map(|&f| normalize(&ws.files[f].path))
        .collect();
    let mut hist = History::default();
    let mut groups: BTreeMap<String, (PathBuf, Origin, Vec<usize>)> = BTreeMap::new();
    let mut projects = Vec::new();
    for &file in &ws.sql {
        let path = normalize(&ws.files[file].path);
        if let Some(n) = path.file_name().and_then(|n| n.to_str())
            && names::is_project_config(n)
        {
            projects.push(file);
            continue;
        }
        let (ctx, origin) = context::for_file_with(ws, settings, &owners, file);
        let (key, dir) = match &origin.cluster_dir {
            Some(d) => (ctx.scope.clone(), d.clone()),
            None => {
                let d = migrations_dir(&path, &paths);
                (d.display().to_string(), d)
            }
        };
        groups
            .entry(key)
            .or_insert_with(|| (dir, origin, Vec::new()))
            .2
            .push(file);
        hist.ctx.insert(file, ctx);
    }
    for (key, (dir, origin, files)) in groups {
        let group = build_group(
            ws,
            settings,
            (key, &dir),
            &origin,
            files,
            &projects,
            &mut hist.problems,
        );
        hist.groups.push(group);
    }
    hist
}

/// The directory whose files share one history, for a file no Cluster
/// claims: its own directory, except where the layout puts each migration
/// in a directory of its own (diesel's `<version>_<name>/up.sql`, sqitch's
/// `deploy/`, a `versioned/v0.4/` tree next to its `schema.sql`).
fn migrations_dir(path: &Path, sql_files: &HashSet<PathBuf>) -> PathBuf {
    let mut dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // sqitch: <project>/deploy/<change>.sql, where <project> has the plan.
    for anc in path.ancestors().skip(1) {
        let Some(parent) = anc.parent() else { break };
        if matches!(
            anc.file_name().and_then(|n| n.to_str()),
            Some("deploy" | "revert" | "verify")
        ) && sql_files.contains(&parent.join("sqitch.plan"))
        {
            return parent.to_path_buf();
        }
    }
    if matches!(name, "up.sql" | "down.sql" | "metadata.toml")
        && dir
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(diesel::is_migration_dir)
    {
        return dir.parent().unwrap_or(Path::new("")).to_path_buf();
    }
    // Version directories (`v0.4`, `12`) and Cadence's `versioned/` belong
    // to the directory above them, where the dump usually sits.
    while let Some(last) = dir.file_name().and_then(|n| n.to_str()) {
        if !(names::is_version_dir(last) || last == "versioned") {
            break;
        }
        match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => dir = p.to_path_buf(),
            _ => break,
        }
    }
    dir
}

fn build_group<'w>(
    ws: &'w Workspace,
    settings: &Settings,
    (name, dir): (String, &Path),
    origin: &Origin,
    mut files: Vec<usize>,
    projects: &[usize],
    problems: &mut Vec<Problem>,
) -> Group {
    // The tool's order never depends on the order files were found in.
    files.sort_by(|a, b| ws.files[*a].path.cmp(&ws.files[*b].path));
    let flavor = Flavor::of_product(&origin.product);
    let mut inputs = Vec::new();
    let mut metas = Vec::new();
    let mut foreign: BTreeMap<&str, Vec<Input>> = BTreeMap::new();
    for file in files {
        let src = &ws.files[file];
        let path = normalize(&src.path);
        let rel = path
            .strip_prefix(dir)
            .unwrap_or(path.file_name().map_or(path.as_path(), Path::new))
            .to_string_lossy()
            .replace('\\', "/");
        let raw = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let (stripped, file_flavor) = names::split_flavor(&raw);
        let inp = Input {
            file,
            rel,
            name: stripped,
            flavor: file_flavor,
            text: &src.text,
        };
        if names::is_sidecar(&raw) {
            metas.push(inp);
            continue;
        }
        if let Some(f) = file_flavor
            && flavor.rank(f).is_none()
        {
            foreign.entry(f.as_str()).or_default().push(inp);
            continue;
        }
        inputs.push(inp);
    }
    // One notice per database, at its first file: a multi-database popx
    // directory would otherwise print thousands.
    for (db, skipped) in foreign {
        let first = &skipped[0];
        let more = match skipped.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more file like it)".to_string(),
            n => format!(
                " (and {} more files like it)",
                crate::contracts::units::thousands(n as i128)
            ),
        };
        let analysable = skipped[0].flavor.is_some_and(Flavor::analysable);
        problems.push(Problem {
            rule: RuleId::PC012,
            file: first.file,
            span: Span::empty(0),
            detail: format!(
                "the file name says it is for {db}{more}, and this directory's migrations run on {}{}",
                flavor.as_str(),
                if analysable {
                    ""
                } else {
                    " (platcheck analyses PostgreSQL, MySQL and MariaDB)"
                }
            ),
        });
    }
    let requested = origin.layout;
    let layout = requested.unwrap_or_else(|| layout::detect(&inputs, &metas));
    // The nearest project configuration at or above the group wins.
    let mut projects: Vec<Input<'w>> = projects
        .iter()
        .filter_map(|&f| {
            let path = normalize(&ws.files[f].path);
            let name = path.file_name()?.to_string_lossy().to_string();
            dir.starts_with(path.parent()?).then(|| Input {
                file: f,
                rel: path.display().to_string(),
                name,
                flavor: None,
                text: &ws.files[f].text,
            })
        })
        .collect();
    projects.sort_by_key(|p| std::cmp::Reverse(p.rel.len()));
    let mut b = Build {
        flavor,
        steps: Vec::new(),
        baseline: Vec::new(),
        problems,
        projects,
        flyway_mixed: false,
    };
    // Schema dumps are the starting schema in every layout.
    let baseline_path = origin.baseline.as_ref().map(|p| normalize(p));
    inputs.retain(|inp| {
        let path = normalize(&ws.files[inp.file].path);
        let named = baseline_path.as_ref() == Some(&path);
        if named || (layout != Layout::Sqitch && names::is_dump(&inp.name)) {
            b.baseline.push(Unit::whole(inp.file, inp.rel.clone()));
            false
        } else {
            true
        }
    });
    match layout {
        Layout::GolangMigrate => versioned::golang(&mut b, inputs),
        Layout::Popx => versioned::popx(&mut b, inputs),
        Layout::Diesel => diesel::read(&mut b, inputs, &metas),
        Layout::Dbmate | Layout::Goose | Layout::SqlMigrate => {
            sections::read(&mut b, layout, inputs)
        }
        Layout::Flyway => flyway::read(&mut b, inputs, &metas),
        Layout::Liquibase => liquibase::read(&mut b, inputs),
        Layout::Sqitch => sqitch::read(&mut b, inputs, &metas),
        Layout::Plain => plain::read(&mut b, inputs),
    }
    let mut tx = TxPolicy::new(origin.tool, settings, layout, flavor);
    tx.flyway_mixed = b.flyway_mixed;
    Group {
        name,
        layout,
        baseline: b.baseline,
        steps: b.steps,
        tx,
    }
}
