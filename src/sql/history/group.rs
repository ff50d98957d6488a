//! Which files form one history: a Cluster's `migrations.path` (split by
//! migrations directory where their layouts differ), or the migrations
//! directory a file sits in; and how one group's files are read.
use super::{
    Build, Flavor, Group, History, Input, Layout, Problem, TxPolicy, Unit, diesel, flyway, layout,
    liquibase, names, plain, sections, sqitch, versioned,
};
use crate::catalog::RuleId;
use crate::settings::Settings;
use crate::source::{Span, normalize};
use crate::sql::context::{self, Origin};
use crate::workspace::Workspace;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

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
    let kept = kept_histories(ws, settings, &owners, &paths);
    for &file in &ws.sql {
        let path = normalize(&ws.files[file].path);
        if let Some(n) = path.file_name().and_then(|n| n.to_str())
            && names::is_project_config(n)
        {
            projects.push(file);
            continue;
        }
        if let Some(kept) = &kept
            && !kept.contains(&history_key(&owners, &path, &paths))
        {
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
        let parts = if origin.cluster_dir.is_some() {
            cluster_parts(ws, &dir, &origin, files, &paths)
        } else {
            vec![(origin.layout, dir, files)]
        };
        let several = parts.len() > 1;
        for (layout, part_dir, part_files) in parts {
            let name = if several {
                format!("{key} ({})", part_dir.display())
            } else {
                key.clone()
            };
            let group = build_group(
                ws,
                settings,
                (name, key.clone(), &part_dir),
                (&origin, layout),
                part_files,
                &projects,
                &mut hist.problems,
            );
            hist.groups.push(group);
        }
    }
    hist
}

/// The history a migration file (its normalised path) belongs to, as
/// `plan` keys it: its Cluster's, else its migrations directory's.
fn history_key(
    owners: &std::collections::HashMap<PathBuf, &crate::contracts::Contract>,
    path: &Path,
    paths: &HashSet<PathBuf>,
) -> String {
    match context::owner(owners, path) {
        Some(c) => format!("cluster:{}", c.name),
        None => migrations_dir(path, paths).display().to_string(),
    }
}

/// In a run limited to named files, the histories that hold one: the
/// others are neither replayed nor reported on, so they are not planned
/// (planning reads every owning Cluster's contract and every directory's
/// layout). `None`: plan every history (a whole run, or a named tool
/// project file, which every history under it reads).
fn kept_histories(
    ws: &Workspace,
    settings: &Settings,
    owners: &std::collections::HashMap<PathBuf, &crate::contracts::Contract>,
    paths: &HashSet<PathBuf>,
) -> Option<HashSet<String>> {
    let named = settings.report_only.as_ref()?;
    let mut kept = HashSet::new();
    for &file in &ws.sql {
        let path = normalize(&ws.files[file].path);
        if !named.iter().any(|n| path.starts_with(n)) {
            continue;
        }
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(names::is_project_config)
        {
            return None;
        }
        kept.insert(history_key(owners, &path, paths));
    }
    Some(kept)
}

/// A Cluster's files by migrations directory, each with its layout; the
/// directories of one layout are read as one (Flyway and golang-migrate
/// scan subdirectories), sqitch projects each on its own.
fn cluster_parts(
    ws: &Workspace,
    cluster_dir: &Path,
    origin: &Origin,
    files: Vec<usize>,
    paths: &HashSet<PathBuf>,
) -> Vec<(Option<Layout>, PathBuf, Vec<usize>)> {
    let mut by_dir: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for f in files {
        let path = normalize(&ws.files[f].path);
        by_dir
            .entry(migrations_dir(&path, paths))
            .or_default()
            .push(f);
    }
    let flavor = Flavor::of_product(&origin.product);
    let mut parts: Vec<(Option<Layout>, PathBuf, Vec<usize>)> = Vec::new();
    for (dir, files) in by_dir {
        let layout = origin.layout.unwrap_or_else(|| {
            let (inputs, metas) = inputs_of(ws, &dir, &files, flavor);
            layout::detect(&inputs, &metas)
        });
        match parts.iter_mut().find(|p| p.0 == Some(layout)) {
            Some(p) if layout != Layout::Sqitch => {
                p.1 = cluster_dir.to_path_buf();
                p.2.extend(files);
            }
            _ => parts.push((Some(layout), dir, files)),
        }
    }
    parts
}

/// The files of a group as the layout readers see them, and the sidecar
/// files beside them; the rest of the inputs' interpretation (dialect
/// filters, dumps) is `build_group`'s.
fn inputs_of<'w>(
    ws: &'w Workspace,
    dir: &Path,
    files: &[usize],
    flavor: Flavor,
) -> (Vec<Input<'w>>, Vec<Input<'w>>) {
    let mut inputs = Vec::new();
    let mut metas = Vec::new();
    for &file in files {
        let inp = input(ws, dir, file);
        if names::is_sidecar(&file_name(ws, file)) {
            metas.push(inp);
        } else if inp.flavor.is_none_or(|f| flavor.rank(f).is_some()) {
            inputs.push(inp);
        }
    }
    (inputs, metas)
}

fn file_name(ws: &Workspace, file: usize) -> String {
    ws.files[file]
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// One file as an input of the group in `dir`.
fn input<'w>(ws: &'w Workspace, dir: &Path, file: usize) -> Input<'w> {
    let src = &ws.files[file];
    let path = normalize(&src.path);
    let rel = path
        .strip_prefix(dir)
        .unwrap_or(path.file_name().map_or(path.as_path(), Path::new))
        .to_string_lossy()
        .replace('\\', "/");
    let (name, flavor) = names::split_flavor(&file_name(ws, file));
    Input {
        file,
        rel,
        name,
        flavor,
        text: &src.text,
    }
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
    (name, history, dir): (String, String, &Path),
    (origin, requested): (&Origin, Option<Layout>),
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
        let inp = input(ws, dir, file);
        let raw = file_name(ws, file);
        let file_flavor = inp.flavor;
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
        history,
        layout,
        baseline: b.baseline,
        steps: b.steps,
        tx,
    }
}
