//! `check` and what prints a finished run: the formats, the `--output`
//! files (never one the run read), the terminal's width and colour.
use super::{
    CheckArgs, CliError, ColorArg, FileWrite, Global, Output, fix, overrides, probe_request, report,
};
use crate::engine;
use crate::outcome::Outcome;
use crate::output::{self, Format, human};
use crate::settings::Overrides;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

type Targets = (Option<PathBuf>, Vec<(Format, PathBuf)>);

fn output_targets(args: &CheckArgs, cwd: &Path) -> Result<Targets, CliError> {
    let mut primary: Option<PathBuf> = None;
    let mut extra: Vec<(Format, PathBuf)> = Vec::new();
    for o in &args.output {
        match o.split_once('=') {
            Some((fmt, file)) => {
                let f = Format::parse(fmt).ok_or_else(|| {
                    CliError(format!(
                        "--output {o}: unknown format `{fmt}` (human, json, sarif, github, gitlab, junit, gcc, markdown, html)"
                    ))
                })?;
                extra.push((f, cwd.join(file)));
            }
            None if primary.is_none() => primary = Some(cwd.join(o)),
            None => {
                return Err(CliError(
                    "--output FILE may be given once; use FORMAT=FILE for more".into(),
                ));
            }
        }
    }
    Ok((primary, extra))
}

pub(super) fn check(
    g: &Global,
    args: &CheckArgs,
    cwd: &Path,
    only_probe: bool,
) -> Result<Output, CliError> {
    // Parse --output before the run so a typo fails fast.
    output_targets(args, cwd)?;
    if args.fixes.fix || args.fixes.diff {
        return fix::run(g, args, cwd);
    }
    let ov = Overrides {
        probe: probe_request(args, only_probe)?,
        ..overrides(g, args, cwd)
    };
    let outcome = engine::run(&args.paths, cwd, &ov)?;
    check_outcome(g, args, cwd, outcome)
}

/// Prints a finished run the way `check` does (formats, --output files).
pub(crate) fn check_outcome(
    g: &Global,
    args: &CheckArgs,
    cwd: &Path,
    mut outcome: Outcome,
) -> Result<Output, CliError> {
    let (primary, extra) = output_targets(args, cwd)?;
    let style = human::Style {
        color: use_color(g.color) && primary.is_none(),
        width: if primary.is_some() { 0 } else { width() },
        quiet: g.quiet,
    };
    let plain = human::Style {
        color: false,
        ..style
    };
    let mut files = Vec::new();
    // The launch report also says which revision it describes (git). A
    // printer that panics turns the findings it fails on into PC000.
    let mut render = |f: Format, style: human::Style| {
        let name = format!("{f:?}").to_ascii_lowercase();
        output::isolate::render_isolated(&mut outcome, &name, |o| match f {
            Format::Markdown | Format::Html => report::render_from_check(f, o, &args.paths, cwd),
            _ => output::render(f, o, style),
        })
    };
    // Standard output is written by `main` as the findings are formatted
    // (`Output::Check::stream`) for the formats that stream.
    let stream = (primary.is_none() && output::streams(g.format)).then_some((g.format, style));
    let mut text = if stream.is_some() {
        String::new()
    } else {
        render(g.format, style)
    };
    if let Some(path) = primary {
        files.push(FileWrite {
            path,
            text: render(g.format, plain),
            append: false,
            replace: crate::read::write::Replace::Output,
        });
        text = String::new();
    }
    for (f, path) in extra {
        files.push(FileWrite {
            path,
            text: render(f, plain),
            append: false,
            replace: crate::read::write::Replace::Output,
        });
    }
    refuse_inputs(&files, &outcome)?;
    if g.format == Format::Github
        && let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty())
    {
        files.push(FileWrite {
            path: PathBuf::from(summary),
            text: output::github::step_summary(&outcome),
            append: true,
            replace: crate::read::write::Replace::Output,
        });
    }
    Ok(Output::Check {
        text,
        outcome: Box::new(outcome),
        files,
        stream,
    })
}

/// `--output` never replaces a file the run read: with a file named like an
/// option (`--output=gcc=migrations/v1.sql`) that would destroy an input.
fn refuse_inputs(files: &[FileWrite], outcome: &Outcome) -> Result<(), CliError> {
    // Resolving every input (5,700 on the bench repo, a `readlink` per
    // path component each) is for nothing when no file is written.
    if files.is_empty() {
        return Ok(());
    }
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let inputs: std::collections::BTreeSet<PathBuf> = outcome
        .files
        .iter()
        .filter_map(|f| canon(&f.path))
        .collect();
    for f in files {
        if canon(&f.path).is_some_and(|p| inputs.contains(&p)) {
            return Err(CliError(format!(
                "refusing to write {}: it is one of the files this run checked",
                f.path.display()
            )));
        }
    }
    Ok(())
}

/// Columns for human output: `COLUMNS`, else the terminal's width; output
/// that goes to a pipe or a file is not wrapped (0).
fn width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
    {
        return n.max(40);
    }
    if std::io::stdout().is_terminal()
        && let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size()
    {
        return usize::from(w).max(40);
    }
    0
}

fn use_color(c: ColorArg) -> bool {
    match c {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}
