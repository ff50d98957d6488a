//! `platcheck report`: run the engine as `check` does and render the
//! checklists. The report is a document, not a gate: it exits 0 whatever it
//! finds (`platcheck check` is the gate).
use super::{CheckArgs, CliError, FileWrite, Output};
use crate::engine;
use crate::outcome::Outcome;
use crate::output;
use crate::report::{self, Format, Links, Options};
use crate::settings::Overrides;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone, Default)]
pub struct ReportArgs {
    /// Files or directories (default: the working directory).
    pub paths: Vec<PathBuf>,
    /// Write the report to FILE (its file:line links then work from FILE's directory).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Only the summary and one line per contract (for CI step summaries).
    #[arg(long)]
    pub compact: bool,
    /// Link files under this URL instead of by relative path (e.g. https://github.com/o/r/blob/<sha>/).
    #[arg(long, value_name = "URL")]
    pub links: Option<String>,
    /// Hide the findings recorded in this baseline (as `check --baseline`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Ignore inline `platcheck-ignore` comments (for audits).
    #[arg(long)]
    pub no_inline_suppressions: bool,
    /// Compare payload schemas (EV053) with this git revision.
    #[arg(long, value_name = "GIT-REF")]
    pub base: Option<String>,
}

impl ReportArgs {
    /// The same run settings `check` would take.
    pub fn check_args(&self) -> CheckArgs {
        CheckArgs {
            paths: self.paths.clone(),
            baseline: self.baseline.clone(),
            no_inline_suppressions: self.no_inline_suppressions,
            base: self.base.clone(),
            ..Default::default()
        }
    }
}

/// `--format` is the global flag: markdown (also the default, `human`),
/// html or json.
fn format(f: output::Format) -> Result<Format, CliError> {
    match f {
        output::Format::Human | output::Format::Markdown => Ok(Format::Markdown),
        output::Format::Html => Ok(Format::Html),
        output::Format::Json => Ok(Format::Json),
        other => Err(CliError(format!(
            "platcheck report writes markdown, html or json, not {}; use --format markdown, html or json",
            clap::ValueEnum::to_possible_value(&other)
                .map_or_else(String::new, |v| v.get_name().to_string())
        ))),
    }
}

pub fn run(
    fmt: output::Format,
    args: &ReportArgs,
    cwd: &Path,
    overrides: &Overrides,
) -> Result<Output, CliError> {
    let fmt = format(fmt)?;
    let outcome = engine::run(&args.paths, cwd, overrides)?;
    let links = match &args.links {
        Some(url) => Links::url(url),
        None => Links::relative(args.output.as_deref(), cwd),
    };
    let opts = Options {
        compact: args.compact,
        links,
    };
    let facts = super::report_facts::gather(&outcome, &args.paths, cwd);
    let text = report::render_model(fmt, &report::model::build(&outcome, facts), &opts);
    Ok(match &args.output {
        None => Output::Text(text, Vec::new()),
        Some(path) => {
            let path = cwd.join(path);
            let done = format!("wrote the launch-checklist report to {}\n", path.display());
            Output::Text(
                done,
                vec![FileWrite {
                    path,
                    text,
                    append: false,
                    replace: crate::read::write::Replace::Output,
                }],
            )
        }
    })
}

/// `check --format markdown|html`: the report of the gating run, with the
/// same run facts `platcheck report` gives.
pub fn render_from_check(
    f: output::Format,
    outcome: &Outcome,
    paths: &[PathBuf],
    cwd: &Path,
) -> String {
    let fmt = match f {
        output::Format::Html => Format::Html,
        _ => Format::Markdown,
    };
    let facts = super::report_facts::gather(outcome, paths, cwd);
    report::render_model(
        fmt,
        &report::model::build(outcome, facts),
        &Options::default(),
    )
}
