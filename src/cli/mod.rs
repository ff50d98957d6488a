//! The command line (clap derive). `execute` returns data; `main` prints it
//! and chooses the exit code.
use crate::contracts::schema::SchemaKind;
use crate::contracts::units;
use crate::engine::RunError;
use crate::outcome::Outcome;
use crate::output::Format;
use crate::settings::{FailOn, Overrides};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

pub mod args;
mod check;
use check::check;
pub(crate) use check::check_outcome;
mod commands;
pub mod fix;
mod probe;
use probe::probe_request;
pub mod report;
pub mod report_facts;
pub mod verify;
use commands::{baseline_write, init, rule_doc, rules_table, suppressions};

#[derive(Parser, Debug)]
#[command(
    name = "platcheck",
    version,
    about = "Lint data-platform contracts, event boundaries, migrations and mirrored docs",
    after_help = "Without a command, `platcheck [PATHS]...` is `platcheck check [PATHS]...`."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    /// The command (default: `check`; see `args::prepare`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Args, Debug, Clone)]
pub struct Global {
    /// Use this config file instead of searching for platcheck.yaml.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The date staleness rules compare against (YYYY-MM-DD); default: config `today`, else the system date (UTC).
    #[arg(long, global = true, value_name = "YYYY-MM-DD", value_parser = parse_today)]
    pub today: Option<jiff::civil::Date>,
    /// Output format.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit 1 when a finding has at least this severity.
    #[arg(long, global = true, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Colour in human output (honours NO_COLOR; `auto` colours only a terminal).
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Print findings only: no header line.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Run only these rules (ids, names, families like MG, prefixes like MG03; comma-separated or repeated). Replaces the config's `select`.
    #[arg(long, global = true, value_delimiter = ',', value_name = "RULES")]
    pub select: Vec<String>,
    /// Do not run these rules (same forms as --select), besides the config's `ignore`.
    #[arg(long, global = true, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    Error,
    Warning,
    Notice,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Args, Debug, Clone, Default)]
pub struct CheckArgs {
    /// Files or directories (default: the working directory).
    pub paths: Vec<PathBuf>,
    /// Write the --format output to FILE instead of stdout; or, as
    /// FORMAT=FILE (repeatable), also write FORMAT to FILE
    /// (e.g. `--format github --output sarif=platcheck.sarif`).
    #[arg(long, short = 'o', value_name = "[FORMAT=]FILE")]
    pub output: Vec<String>,
    /// Hide the findings recorded in this baseline (see `platcheck baseline write`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Report only findings in files changed since this git ref (cross-file rules still see everything).
    #[arg(long, value_name = "REF")]
    pub changed_since: Option<String>,
    /// Ignore inline `platcheck-ignore` comments (for audits).
    #[arg(long)]
    pub no_inline_suppressions: bool,
    /// Compare payload schemas (EV053) with this git revision (branch, tag or commit).
    #[arg(long, value_name = "GIT-REF")]
    pub base: Option<String>,
    /// Read files through symlinks (and config paths) that resolve outside the repository.
    #[arg(long)]
    pub follow_external_links: bool,
    /// Also probe the running systems the contracts name (the PR rules), and
    /// judge migrations by the observed table sizes (see `platcheck probe`).
    #[arg(long)]
    pub probe: bool,
    /// With `probe` or `--probe`: the URL of one target, NAME=URL (repeatable;
    /// NAME is a contract's metadata.name, or <name>.dedup for an
    /// EventBoundary's Redis dedup tier). Prefer the environment variable the
    /// contract names (probe.url_env): a flag is visible in the process list.
    #[arg(long = "target", value_name = "NAME=URL")]
    pub target: Vec<String>,
    #[command(flatten)]
    pub fixes: fix::FixFlags,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check contracts, migrations and docs (the default command).
    Check(CheckArgs),
    /// Apply the fixes of the findings (safe ones; --unsafe-fixes for the rest), or print them with --diff (exit 1 when something would change); then check again.
    #[command(mut_arg("probe", |a| a.hide(true)), mut_arg("target", |a| a.hide(true)))]
    Fix(CheckArgs),
    /// Run the documents' mirrored-section grep gate: prints what their own awk | grep -nE prints, exits 1 on any hit.
    Gate(args::PathArgs),
    /// Print a rule's documentation.
    Rule {
        /// Rule id (CL011) or name (rpo-zero-with-async-replication).
        id: String,
    },
    /// List every rule: id, severity, name, message (`--format json`: every field).
    Rules,
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff) for `man -l -`.
    Man,
    /// Print an embedded JSON Schema.
    Schema {
        #[arg(value_parser = ["cluster", "event-boundary", "config", "report"])]
        kind: String,
    },
    /// Record or manage the baseline of accepted findings.
    Baseline {
        #[command(subcommand)]
        action: BaselineAction,
    },
    /// The launch checklists of every Cluster and EventBoundary, as Markdown (default), --format html or --format json.
    Report(report::ReportArgs),
    /// List every inline suppression: rules, reason, expiry, and whether it matched.
    Suppressions(args::SuppressionsArgs),
    /// Replay migrations on a real PostgreSQL or MariaDB/MySQL (scratch database) and compare its locks, rewrites and ALTER algorithms with the lock table's prediction: exit 1 on any disagreement (MG900), 2 when the server cannot be reached.
    Verify(verify::VerifyArgs),
    /// Compare the contracts with the running systems they name (read-only sessions): every declared-vs-observed difference is a PR finding; same formats, suppressions and baseline as `check`.
    #[command(
        mut_arg("probe", |a| a.hide(true)),
        mut_arg("base", |a| a.hide(true)),
        mut_arg("fix", |a| a.hide(true)),
        mut_arg("diff", |a| a.hide(true)),
        mut_arg("unsafe_fixes", |a| a.hide(true)),
        mut_arg("verify", |a| a.hide(true)),
        mut_arg("verify_url", |a| a.hide(true))
    )]
    Probe(CheckArgs),
    /// Serve diagnostics, quick fixes and hover to an editor (Language Server Protocol over stdio).
    Lsp,
    /// Scaffold platcheck.yaml and one example contract per kind (never overwrites).
    Init {
        /// Directory to scaffold into (default: the working directory).
        dir: Option<PathBuf>,
        /// The migration tool (default: detected from the migration directories' shapes).
        #[arg(long, value_parser = tool_names())]
        tool: Option<String>,
        /// Then check the directory and record every existing finding in
        /// .platcheck-baseline.json, which the config names: the next run is
        /// clean and only new work is judged.
        #[arg(long)]
        baseline: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum BaselineAction {
    /// Check the working directory and record every finding in FILE
    /// (default: the config's `baseline`, else .platcheck-baseline.json).
    Write {
        file: Option<PathBuf>,
        /// Paths to check (default: the working directory).
        #[arg(long = "path", value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Record what `platcheck probe` reports instead (the running
        /// systems' drift), for `platcheck probe --baseline FILE`.
        #[arg(long)]
        probe: bool,
        /// With --probe: the URL of one target, NAME=URL (repeatable).
        #[arg(long = "target", value_name = "NAME=URL")]
        target: Vec<String>,
    },
}

fn tool_names() -> Vec<&'static str> {
    crate::sql::history::tool_names()
}

fn parse_today(s: &str) -> Result<jiff::civil::Date, String> {
    units::parse_date(s)
}

/// What a command produced. `main` prints it and picks the exit code.
pub enum Output {
    /// A check run, to be printed and judged against `fail_on`; `files`
    /// are extra reports for `main` to write.
    Check {
        text: String,
        outcome: Box<Outcome>,
        files: Vec<FileWrite>,
        /// Printed after `text` by `output::write`, straight to standard
        /// output (the printers that stream never hold the whole output).
        stream: Option<(Format, crate::output::human::Style)>,
    },
    /// Plain text for stdout (exit 0), and files to write.
    Text(String, Vec<FileWrite>),
    /// `platcheck gate`: grep-style hits (exit 1 when any, 2 on errors).
    Gate(crate::mirror::gate_cmd::GateRun),
}

/// A file `main` writes (or appends to) after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    pub path: PathBuf,
    pub text: String,
    pub append: bool,
    /// What the write may replace (never the config, never through a link).
    pub replace: crate::read::write::Replace,
}

/// Errors that end the run with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl From<RunError> for CliError {
    fn from(e: RunError) -> Self {
        match e {
            RunError::Usage(m) => CliError(m),
        }
    }
}

pub fn execute(cli: Cli, cwd: &Path) -> Result<Output, CliError> {
    let g = cli.global;
    let only_probe = matches!(cli.command, Some(Command::Probe(_)));
    let text = |s: String| Output::Text(s, Vec::new());
    match cli.command {
        None => check(&g, &CheckArgs::default(), cwd, false),
        Some(Command::Check(args)) => {
            args::refuse_unused("check", &args).map_err(CliError)?;
            check(&g, &args, cwd, false)
        }
        Some(Command::Fix(args)) => {
            args::refuse_unused("fix", &args).map_err(CliError)?;
            fix::run(&g, &args, cwd)
        }
        Some(Command::Rule { id }) => rule_doc(&id).map(text),
        Some(Command::Rules) if g.format == Format::Json => Ok(text(commands::rules_json())),
        Some(Command::Rules) => Ok(text(rules_table())),
        Some(Command::Completions { shell }) => Ok(text(args::completions(shell))),
        Some(Command::Man) => args::man().map(text).map_err(CliError),
        Some(Command::Gate(args)) => crate::mirror::gate_cmd::run(
            &args.paths,
            cwd,
            &overrides(&g, &CheckArgs::default(), cwd),
        )
        .map(Output::Gate)
        .map_err(CliError),
        Some(Command::Schema { kind }) if kind == "report" => {
            Ok(text(crate::report::json::SCHEMA.to_string()))
        }
        Some(Command::Schema { kind }) => {
            let k = SchemaKind::parse(&kind)
                .ok_or_else(|| CliError(format!("unknown schema `{kind}`")))?;
            Ok(text(k.text().to_string()))
        }
        Some(Command::Baseline {
            action:
                BaselineAction::Write {
                    file,
                    paths,
                    probe,
                    target,
                },
        }) => {
            let args = CheckArgs {
                paths,
                probe,
                target,
                ..CheckArgs::default()
            };
            baseline_write(&g, file, &args, probe_request(&args, true)?, cwd)
        }
        Some(Command::Suppressions(args)) => suppressions(&g, &args.into(), cwd),
        Some(Command::Probe(args)) => {
            args::refuse_unused("probe", &args).map_err(CliError)?;
            let args = CheckArgs {
                probe: true,
                ..args
            };
            check(&g, &args, cwd, only_probe)
        }
        Some(Command::Report(args)) => {
            let ov = overrides(&g, &args.check_args(), cwd);
            report::run(g.format, &args, cwd, &ov)
        }
        Some(Command::Verify(args)) => verify::run(g.format, &args, cwd)
            .map(Output::Gate)
            .map_err(CliError),
        // The protocol's exit code (1: `exit` without `shutdown`) goes
        // through the gate's "hits" so `main` maps it like any other.
        Some(Command::Lsp) => {
            crate::lsp::run_stdio(overrides(&g, &CheckArgs::default(), cwd), cwd.to_path_buf())
                .map(|code| {
                    Output::Gate(crate::mirror::gate_cmd::GateRun {
                        text: String::new(),
                        hits: usize::from(code),
                        warnings: Vec::new(),
                        errors: Vec::new(),
                    })
                })
                .map_err(CliError)
        }
        Some(Command::Init {
            dir,
            tool,
            baseline,
        }) => init(&g, dir, tool.as_deref(), baseline, cwd),
    }
}

pub(super) fn overrides(g: &Global, args: &CheckArgs, cwd: &Path) -> Overrides {
    let abs = |p: &PathBuf| {
        if p.is_absolute() {
            p.clone()
        } else {
            cwd.join(p)
        }
    };
    Overrides {
        config: g.config.as_ref().map(abs),
        today: g.today,
        fail_on: g.fail_on.map(|f| match f {
            FailOnArg::Error => FailOn::Error,
            FailOnArg::Warning => FailOn::Warning,
            FailOnArg::Notice => FailOn::Notice,
            FailOnArg::Never => FailOn::Never,
        }),
        baseline: args.baseline.as_ref().map(abs),
        no_inline_suppressions: args.no_inline_suppressions,
        changed_since: args.changed_since.clone(),
        base: args.base.clone(),
        follow_external_links: args.follow_external_links,
        select: g.select.clone(),
        ignore: g.ignore.clone(),
        probe: None,
    }
}
