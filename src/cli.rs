//! The command line (clap derive). `execute` returns data; `main` prints it
//! and chooses the exit code.
use crate::catalog::{self, RuleId};
use crate::contracts::schema::SchemaKind;
use crate::contracts::units;
use crate::engine::{self, Outcome, RunError};
use crate::output::{self, Format, human};
use crate::settings::{FailOn, Overrides};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "platcheck",
    version,
    about = "Lint data-platform contracts, event boundaries, migrations and mirrored docs",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Paths to check when no subcommand is given (same as `check`).
    #[command(flatten)]
    pub check: CheckArgs,
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
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check contracts, migrations and docs (the default command).
    Check(CheckArgs),
    /// Run the documents' mirrored-section grep gate: prints what their own awk | grep -nE prints, exits 1 on any hit.
    Gate(CheckArgs),
    /// Print a rule's documentation.
    Rule {
        /// Rule id (CL011) or name (rpo-zero-with-async-replication).
        id: String,
    },
    /// List every rule: id, severity, name, message.
    Rules,
    /// Print an embedded JSON Schema.
    Schema {
        #[arg(value_parser = ["cluster", "event-boundary", "config"])]
        kind: String,
    },
    /// Scaffold platcheck.yaml and one example contract per kind (never overwrites).
    Init {
        /// Directory to scaffold into (default: the working directory).
        dir: Option<PathBuf>,
    },
}

fn parse_today(s: &str) -> Result<jiff::civil::Date, String> {
    units::parse_date(s)
}

/// What a command produced. `main` prints it and picks the exit code.
pub enum Output {
    /// A check run, to be printed and judged against `fail_on`.
    Check { text: String, outcome: Box<Outcome> },
    /// Plain text for stdout (exit 0).
    Text(String),
    /// `platcheck gate`: grep-style hits (exit 1 when any, 2 on errors).
    Gate(crate::mirror::gate_cmd::GateRun),
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
    match cli.command {
        None => check(&g, &cli.check.paths, cwd),
        Some(Command::Check(args)) => check(&g, &args.paths, cwd),
        Some(Command::Gate(args)) => {
            crate::mirror::gate_cmd::run(&args.paths, cwd, &overrides(&g, cwd))
                .map(Output::Gate)
                .map_err(CliError)
        }
        Some(Command::Rule { id }) => rule_doc(&id).map(Output::Text),
        Some(Command::Rules) => Ok(Output::Text(rules_table())),
        Some(Command::Schema { kind }) => {
            let k = SchemaKind::parse(&kind)
                .ok_or_else(|| CliError(format!("unknown schema `{kind}`")))?;
            Ok(Output::Text(k.text().to_string()))
        }
        Some(Command::Init { dir }) => {
            crate::init::scaffold(&dir.unwrap_or_else(|| cwd.to_path_buf()))
                .map(Output::Text)
                .map_err(CliError)
        }
    }
}

fn overrides(g: &Global, cwd: &Path) -> Overrides {
    Overrides {
        config: g.config.as_ref().map(|p| {
            if p.is_absolute() {
                p.clone()
            } else {
                cwd.join(p)
            }
        }),
        today: g.today,
        fail_on: g.fail_on.map(|f| match f {
            FailOnArg::Error => FailOn::Error,
            FailOnArg::Warning => FailOn::Warning,
            FailOnArg::Notice => FailOn::Notice,
            FailOnArg::Never => FailOn::Never,
        }),
    }
}

fn check(g: &Global, paths: &[PathBuf], cwd: &Path) -> Result<Output, CliError> {
    let outcome = engine::run(paths, cwd, &overrides(g, cwd))?;
    let text = match g.format {
        Format::Json => output::json::render(&outcome),
        Format::Human => human::render(
            &outcome,
            human::Style {
                color: use_color(g.color),
                width: 100,
                quiet: g.quiet,
            },
        ),
    };
    Ok(Output::Check {
        text,
        outcome: Box::new(outcome),
    })
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

fn rule_doc(key: &str) -> Result<String, CliError> {
    let id = catalog::lookup(key).ok_or_else(|| {
        let names: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let hint = crate::contracts::schema::suggest(&key.to_ascii_uppercase(), &names)
            .map(|s| format!("; did you mean {s}?"))
            .unwrap_or_else(|| "; `platcheck rules` lists them".into());
        CliError(format!("unknown rule `{key}`{hint}"))
    })?;
    let m = id.meta();
    let mut out = String::new();
    let _ = writeln!(out, "# {} {} ({})\n", id, m.name, m.severity.as_str());
    let _ = writeln!(out, "Message: {}", m.message);
    for (variant, msg) in &m.messages {
        let _ = writeln!(out, "Message ({variant}): {msg}");
    }
    let _ = writeln!(out, "Help: {}", m.help);
    let _ = writeln!(out, "Input: {}", m.input);
    let _ = writeln!(out, "Source: {}", m.source);
    if let Some(c) = &m.checklist {
        let _ = writeln!(out, "Checklist: {c}");
    }
    let _ = writeln!(out, "Docs: {}\n", id.url());
    out.push_str(&m.body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

fn rules_table() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<6}  {:<8}  {:<40}  MESSAGE",
        "ID", "SEVERITY", "NAME"
    );
    for id in RuleId::ALL {
        let m = id.meta();
        let msg = m.message.lines().next().unwrap_or("");
        let _ = writeln!(
            out,
            "{:<6}  {:<8}  {:<40}  {}",
            id,
            m.severity.as_str(),
            m.name,
            msg
        );
    }
    out
}
