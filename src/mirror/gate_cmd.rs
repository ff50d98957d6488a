//! `platcheck gate [FILES…]`: a drop-in for the documents' own
//! `awk … | grep -nE …` command. For one file the output is byte for byte
//! what the pipeline prints (`line:text`). For several files each file with
//! hits gets a `==> path <==` header and a blank line separates the groups,
//! the way `head` and `tail` label several files: a reader can still paste a
//! group next to that file's own pipeline output. Without FILES every gated
//! Markdown file under the working directory is checked.
use super::config::{self, Gate};
use super::doc::Doc;
use super::tokens;
use crate::catalog::{self, RuleId};
use crate::discover::{self, FileClass};
use crate::emit::Report;
use crate::settings::{Overrides, Settings};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the gate found; `main` picks the exit code (2 when `errors`, else 1
/// when `hits`, else 0).
#[derive(Debug, Default)]
pub struct GateRun {
    pub text: String,
    /// Lines printed (over all files).
    pub hits: usize,
    /// Problems that do not stop the gate (MR003 disagreements), for stderr.
    pub warnings: Vec<String>,
    /// Problems that stop it for a file (no boundary, no usable tokens).
    pub errors: Vec<String>,
}

pub fn run(files: &[PathBuf], cwd: &Path, overrides: &Overrides) -> Result<GateRun, String> {
    let abs = |p: &PathBuf| {
        if p.is_absolute() {
            p.clone()
        } else {
            cwd.join(p)
        }
    };
    let start = files.first().map(abs).map_or(cwd.to_path_buf(), |p| {
        if p.is_dir() {
            p
        } else {
            p.parent().map_or(cwd.to_path_buf(), Path::to_path_buf)
        }
    });
    let mut settings = Settings::load(&start, cwd, overrides).map_err(|e| e.0)?;
    let (gates, _) = config::read(settings.config_root.as_ref());
    let default = Gate::from_document();
    let explicit = files.iter().any(|p| !abs(p).is_dir());
    let roots: Vec<PathBuf> = if files.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        files.to_vec()
    };
    settings.admit_named(&roots, cwd);
    let found = discover::discover(&roots, cwd, &settings)?;
    let mut run = GateRun::default();
    for p in &found.problems {
        run.errors.push(format!("{}: {}", p.display, p.reason));
    }
    let mut groups = Vec::new();
    for cand in found
        .files
        .iter()
        .filter(|c| c.class == FileClass::Markdown)
    {
        let text = match crate::read::read_text(&cand.path, settings.max_file_size, &settings.scope)
        {
            Ok(t) => t,
            Err(e) => {
                run.errors.push(format!("{}: {e}", cand.display));
                continue;
            }
        };
        let rel = cand.path.strip_prefix(&settings.root).unwrap_or(&cand.path);
        let Some(gate) = super::gate_for(&gates, &default, rel, &text) else {
            if explicit {
                run.errors.push(format!(
                    "{}: no `{}` section and no mirror_gates entry for this file",
                    cand.display,
                    config::GATE_HEADING
                ));
            }
            continue;
        };
        if let Some(out) = one_file(&mut run, &cand.display, &cand.path, &text, gate) {
            groups.push((cand.display.clone(), out));
        }
    }
    let markdown = found
        .files
        .iter()
        .filter(|c| c.class == FileClass::Markdown);
    let several = markdown.count() > 1;
    for (i, (display, out)) in groups.iter().enumerate() {
        if several {
            if i > 0 {
                run.text.push('\n');
            }
            let _ = writeln!(run.text, "==> {display} <==");
        }
        run.text.push_str(out);
    }
    Ok(run)
}

/// The grep output of one file, `None` when it printed nothing.
fn one_file(
    run: &mut GateRun,
    display: &str,
    path: &Path,
    text: &str,
    gate: &Gate,
) -> Option<String> {
    let doc = Doc::parse(text, &gate.boundary);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let resolved = tokens::resolve(0, &name, &doc, gate);
    for p in &resolved.problems {
        let msg = locate(display, &doc, p);
        if resolved.fatal && p.variant == Some("invalid") {
            run.errors.push(msg);
        } else {
            run.warnings.push(msg);
        }
    }
    if doc.boundary.is_none() {
        let r = Report::new(RuleId::MR002, 0, crate::source::Span::empty(0))
            .var("boundary", &gate.boundary_text)
            .var("gate", &gate.name);
        run.errors.push(locate(display, &doc, &r));
        return None;
    }
    if resolved.fatal {
        run.errors.push(format!(
            "{display}: the gate cannot run: no valid forbidden tokens"
        ));
        return None;
    }
    let mut out = String::new();
    for n in super::hit_lines(&doc, &resolved.tokens) {
        let _ = writeln!(out, "{n}:{}", doc.line(n));
        run.hits += 1;
    }
    (!out.is_empty()).then_some(out)
}

/// `file:line:col: RULE message` for stderr.
fn locate(display: &str, doc: &Doc, r: &Report) -> String {
    let line = doc
        .lines
        .iter()
        .rposition(|l| l.start <= r.span.start)
        .unwrap_or(0);
    let col = doc
        .text
        .get(doc.lines.get(line).map_or(0, |l| l.start)..r.span.start)
        .map_or(1, |s| s.chars().count() + 1);
    format!("{display}:{}:{col}: {} {}", line + 1, r.rule, render(r))
}

/// A report's message, as the engine would render it.
pub fn render(r: &Report) -> String {
    let meta = r.rule.meta();
    let template = r
        .variant
        .and_then(|v| meta.messages.get(v))
        .unwrap_or(&meta.message);
    catalog::render_template(template, &r.vars)
}
