//! The command line before clap sees it, and what clap can say about it:
//! `platcheck [GLOBAL FLAGS] [PATHS]` means `check`, global flags go before
//! or after the command, and a word that is neither a command nor an
//! existing path is a usage error with a did-you-mean (not a file that
//! cannot be read). A flag a command would do nothing with is a usage
//! error too. Also the completion scripts and the man page.
use super::{CheckArgs, Cli};
use clap::{Args, CommandFactory};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Inserts `check` where the command would be when none is given; `Err` is
/// a usage error for an unknown command.
pub fn prepare(args: Vec<OsString>, cwd: &Path) -> Result<Vec<OsString>, String> {
    let cmd = Cli::command();
    let mut with_value: Vec<String> = Vec::new();
    let mut flags: Vec<String> = Vec::new();
    for a in cmd.get_arguments().filter(|a| a.is_global_set()) {
        let names: Vec<String> = a
            .get_long()
            .map(|l| format!("--{l}"))
            .into_iter()
            .chain(a.get_short().map(|s| format!("-{s}")))
            .collect();
        if a.get_action().takes_values() {
            with_value.extend(names);
        } else {
            flags.extend(names);
        }
    }
    let commands: Vec<&str> = cmd
        .get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .chain(["help"])
        .collect();
    let mut i = 1;
    while i < args.len() {
        let Some(a) = args[i].to_str() else {
            // Not UTF-8: a path, never a command.
            break;
        };
        if matches!(a, "-h" | "--help" | "-V" | "--version") {
            return Ok(args);
        }
        if with_value.iter().any(|f| f == a) {
            i += 2;
            continue;
        }
        let long_eq = a.split_once('=').map(|(k, _)| k);
        if flags.iter().any(|f| f == a)
            || long_eq.is_some_and(|k| with_value.iter().any(|f| f == k))
        {
            i += 1;
            continue;
        }
        if commands.contains(&a) {
            return Ok(args);
        }
        if !a.starts_with('-') && a != "-" && !looks_like_path(a, cwd) {
            let hint = crate::contracts::schema::suggest(a, &commands)
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown command `{a}`{hint} (commands: {}; a path to check must exist)",
                commands.join(", ")
            ));
        }
        break;
    }
    if i >= args.len() {
        // Only global flags: `check` of the working directory.
        return Ok(args);
    }
    let mut out = args;
    out.insert(i, OsString::from("check"));
    Ok(out)
}

/// A word is taken as a path when it exists or is written like one.
fn looks_like_path(a: &str, cwd: &Path) -> bool {
    a.contains(['/', '\\', '.']) || cwd.join(a).exists()
}

pub fn completions(shell: clap_complete::Shell) -> String {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "platcheck", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

pub fn man() -> Result<String, String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `platcheck gate`: the files only (it prints what the documents' own
/// `awk | grep` prints, so nothing of `check` applies).
#[derive(Args, Debug, Clone, Default)]
pub struct PathArgs {
    /// Files or directories (default: the working directory).
    pub paths: Vec<PathBuf>,
}

/// `platcheck suppressions`: what decides which suppressions match.
#[derive(Args, Debug, Clone, Default)]
pub struct SuppressionsArgs {
    /// Files or directories (default: the working directory).
    pub paths: Vec<PathBuf>,
    /// Judge with this baseline's findings hidden (see `platcheck baseline write`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// List only suppressions in files changed since this git ref.
    #[arg(long, value_name = "REF")]
    pub changed_since: Option<String>,
    /// Match nothing: every suppression is listed as unused (for audits).
    #[arg(long)]
    pub no_inline_suppressions: bool,
    /// The git revision EV053 compares payload schemas with (an EV053 suppression matches only then).
    #[arg(long, value_name = "GIT-REF")]
    pub base: Option<String>,
    /// Read files through symlinks (and config paths) that resolve outside the repository.
    #[arg(long)]
    pub follow_external_links: bool,
}

impl From<SuppressionsArgs> for CheckArgs {
    fn from(a: SuppressionsArgs) -> CheckArgs {
        CheckArgs {
            paths: a.paths,
            baseline: a.baseline,
            changed_since: a.changed_since,
            no_inline_suppressions: a.no_inline_suppressions,
            base: a.base,
            follow_external_links: a.follow_external_links,
            ..CheckArgs::default()
        }
    }
}

/// The flags of `check` that `command` shares but would do nothing with:
/// each is a usage error naming where it does something, never a silent
/// no-op (`fix --probe` probed nothing and said nothing).
pub fn refuse_unused(command: &str, a: &CheckArgs) -> Result<(), String> {
    let f = &a.fixes;
    let fixing = f.fix || f.diff;
    let refused: &[(&str, bool, &str)] = match command {
        "fix" => &[
            (
                "--probe",
                a.probe,
                "`platcheck probe` or `check --probe`: fixes change files, not running systems",
            ),
            (
                "--target",
                !a.target.is_empty(),
                "`platcheck probe` or `check --probe`",
            ),
        ],
        "probe" => &[
            ("--fix", f.fix, "`check` and `fix`: `probe` changes nothing"),
            (
                "--diff",
                f.diff,
                "`check` and `fix`: `probe` changes nothing",
            ),
            ("--unsafe-fixes", f.unsafe_fixes, "`fix` and `check --fix`"),
            ("--verify", f.verify, "`fix` and `check --fix`"),
            ("--verify-url", f.verify_url.is_some(), "`fix --verify`"),
            (
                "--base",
                a.base.is_some(),
                "`check`: the schema comparison (EV053) is not a probe rule",
            ),
        ],
        _ => &[
            (
                "--unsafe-fixes",
                f.unsafe_fixes && !fixing,
                "`fix`, or `check` with --fix or --diff",
            ),
            ("--verify", f.verify && !fixing, "`fix`, or `check --fix`"),
        ],
    };
    match refused.iter().find(|(_, set, _)| *set) {
        Some((flag, _, home)) => Err(format!(
            "{flag} does nothing in `platcheck {command}`; it belongs to {home}"
        )),
        None => Ok(()),
    }
}
