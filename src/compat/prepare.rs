//! Before the rules run: check `--base` (a bad ref or no repository is a
//! usage error, exit 2), add every boundary's schema file to the workspace
//! so findings can point into it, and say once when compatibility goes
//! unchecked because no `--base` was given.
use super::git::Repo;
use super::{Format, Mode, Policy};
use crate::catalog::RuleId;
use crate::contracts::Contract;
use crate::contracts::yaml::Node;
use crate::emit::{Report, Sink};
use crate::settings::Settings;
use crate::source::{SourceFile, Span};
use crate::workspace::Workspace;
use std::path::{Path, PathBuf};

/// What one boundary declares about its payload schema.
#[derive(Debug, Clone)]
pub struct Target {
    /// `spec.schema.path` as written: relative to the config root (the
    /// directory holding platcheck.yaml, else the working directory).
    pub rel: String,
    pub abs: PathBuf,
    pub format: Format,
    /// `None` when undeclared (EV050 reports that; nothing to compare).
    pub mode: Option<Mode>,
    pub policy: Policy,
}

pub fn target(c: &Contract, settings: &Settings) -> Option<Target> {
    let schema = c.get("/spec/schema")?;
    let rel = schema
        .get("path")
        .and_then(Node::as_str)?
        .trim()
        .to_string();
    if rel.is_empty() {
        return None;
    }
    let format = match schema.get("format").and_then(Node::as_str) {
        Some(f) => Format::parse(f)?,
        None => Format::from_path(&rel)?,
    };
    let mode = schema
        .get("compatibility")
        .and_then(Node::as_str)
        .and_then(Mode::parse);
    let policy = match schema.get("compatibility_policy").and_then(Node::as_str) {
        Some("lenient") => Policy::Lenient,
        _ => Policy::Strict,
    };
    Some(Target {
        abs: settings.root.join(&rel),
        rel,
        format,
        mode,
        policy,
    })
}

/// `--base` names no revision of a repository: the run cannot compare
/// anything and stops (the engine makes it a usage error, exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseError(pub String);

pub fn prepare(
    ws: &mut Workspace,
    settings: &Settings,
    cwd: &Path,
    sink: &mut Sink,
) -> Result<(), BaseError> {
    if let Some(base) = &settings.base {
        Repo::open(&settings.root, base).map_err(BaseError)?;
    }
    let targets: Vec<(Target, bool)> = ws
        .boundaries()
        .filter_map(|c| {
            let t = target(c, settings)?;
            let shown = settings.reports_on(&ws.files[c.file].path) || settings.reports_on(&t.abs);
            Some((t, shown))
        })
        .collect();
    // Only the boundaries the run reports on count (a named-files run).
    let compared = targets
        .iter()
        .filter(|(t, shown)| *shown && t.mode.is_some_and(|m| m != Mode::None))
        .count();
    if settings.base.is_none() && compared > 0 && settings.severity(RuleId::EV053).is_some() {
        let s = if compared == 1 { "" } else { "s" };
        sink.notes.push(format!(
            "payload schema compatibility (EV053) was not checked for {compared} event boundar{}: pass --base <git-ref> to compare with an earlier revision",
            if s.is_empty() { "y" } else { "ies" }
        ));
    }
    // A schema neither it nor its boundary is shown can only give findings
    // the run drops (EV053 reports on the boundary or on the schema file).
    for (t, _) in targets.into_iter().filter(|(_, shown)| *shown) {
        if ws.file_at(&t.abs).is_some() || !t.abs.exists() {
            continue;
        }
        let display = crate::source::display_path(&t.abs, cwd);
        match crate::read::read_text(&t.abs, settings.max_file_size, &settings.scope) {
            Ok(text) => {
                ws.add_file(SourceFile::new(display, &t.abs, &text), None);
            }
            Err(detail) => {
                let file = ws.add_file(SourceFile::new(display, &t.abs, ""), None);
                sink.push(Report::new(RuleId::PC001, file, Span::empty(0)).var("detail", detail));
            }
        }
    }
    Ok(())
}
