//! The command line before clap sees it, and what clap can say about it:
//! `platcheck [GLOBAL FLAGS] [PATHS]` means `check`, global flags go before
//! or after the command, and a word that is neither a command nor an
//! existing path is a usage error with a did-you-mean (not a file that
//! cannot be read). Also the completion scripts and the man page.
use super::Cli;
use clap::CommandFactory;
use std::ffi::OsString;
use std::path::Path;

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
