//! `platcheck fix` and `check --fix` / `--diff`: run the check, fit the
//! fixes of its findings together (`fix::apply`), write them (or print them
//! as a unified diff), and check again until nothing fits any more, so a
//! fix whose bytes another fix changed is judged on the new text (`--diff`
//! does the same in a scratch copy, `scratch`).
use super::{CheckArgs, CliError, Global, Output, overrides};
use crate::catalog::FixSafety;
use crate::engine;
use crate::finding::{Finding, Fix};
use crate::fix::apply::{self, Change, Plan};
use crate::outcome::Outcome;
use crate::source::display_path;
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod scratch;
mod write;

/// How `check` applies fixes (also the flags of `platcheck fix`).
#[derive(Args, Debug, Clone, Default)]
pub struct FixFlags {
    /// Apply the safe fixes of the findings to the files (see `platcheck fix`).
    #[arg(long)]
    pub fix: bool,
    /// Print the fixes as a unified diff instead of writing them; exit 1 when something would change.
    #[arg(long)]
    pub diff: bool,
    /// Also apply fixes marked unsafe (they move a statement or write a placeholder: read them).
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// After fixing, replay the fixed migrations on a real server with fixture rows and fail (exit 1) if a lock that blocks writes is held while rows are read (PostgreSQL) or the server refuses a fix's ALGORITHM/LOCK clause (MySQL/MariaDB).
    #[arg(long, conflicts_with = "diff")]
    pub verify: bool,
    /// The server for --verify (a database is created and dropped there); default: a throwaway server started from the installed PostgreSQL binaries.
    #[arg(long, value_name = "URL", requires = "verify")]
    pub verify_url: Option<String>,
    /// The MySQL/MariaDB server for --verify of MySQL fixes (`mysql://user:pass@host:port/db`; a database is created and dropped there); default: a throwaway MariaDB from the installed binaries.
    #[arg(long, value_name = "URL", requires = "verify")]
    pub verify_mysql_url: Option<String>,
}

/// Rounds of check → fix before giving up on fixes that keep clashing.
const PASSES: usize = 8;

pub fn run(g: &Global, args: &CheckArgs, cwd: &Path) -> Result<Output, CliError> {
    let ov = overrides(g, args, cwd);
    let flags = &args.fixes;
    if flags.diff {
        let outcome = engine::run(&args.paths, cwd, &ov)?;
        let plan = plan_for(&outcome, flags.unsafe_fixes);
        let mut warnings = Vec::new();
        let mut changes = plan.changes;
        if !changes.is_empty() {
            match scratch::changes(&args.paths, cwd, &ov, &outcome.root, flags.unsafe_fixes)
                .map_err(|e| {
                    // An error a signal caused: the signal thread exits.
                    crate::sql::verify::signals::settle_if_interrupted();
                    CliError(e)
                })?
            {
                Some((all, busy)) => {
                    changes = all;
                    if busy {
                        warnings.push(format!(
                            "fixes still found work after {PASSES} passes: run `platcheck fix --diff` again after fixing"
                        ));
                    }
                }
                None => warnings.push(
                    "--diff shows the first pass of fixes only (the run names files outside its root or compares with git): fixes these enable show after `platcheck fix`".into(),
                ),
            }
        }
        let text = diffs(&changes, cwd);
        let held = held_back(&outcome, flags.unsafe_fixes);
        if held > 0 {
            warnings.push(format!(
                "{} an unsafe fix: add --unsafe-fixes to include them",
                crate::catalog::plural(held, "more finding has", "more findings have")
            ));
        }
        return Ok(Output::Gate(crate::mirror::gate_cmd::GateRun {
            text,
            hits: changes.len(),
            warnings,
            errors: Vec::new(),
        }));
    }
    let mut applied = 0;
    let mut written: BTreeMap<PathBuf, ()> = BTreeMap::new();
    for pass in 0..PASSES {
        let outcome = engine::run(&args.paths, cwd, &ov)?;
        if pass == 0 {
            scratch::remove_stale(&cwd.join(&outcome.root));
        }
        let plan = plan_for(&outcome, flags.unsafe_fixes);
        if plan.changes.is_empty() {
            break;
        }
        for (path, change) in &plan.changes {
            write::apply(path, change).map_err(CliError)?;
            written.insert(path.clone(), ());
        }
        applied += plan.applied.len();
    }
    if flags.verify {
        let text = prove(args, cwd, &ov, &written)?;
        return Ok(Output::Gate(text));
    }
    let outcome = engine::run(&args.paths, cwd, &ov)?;
    let mut head = format!(
        "platcheck fix: applied {} to {}\n",
        crate::catalog::plural(applied, "fix", "fixes"),
        crate::catalog::plural(written.len(), "file", "files")
    );
    for path in written.keys() {
        head.push_str(&format!("  fixed {}\n", display_path(path, cwd)));
    }
    let held = held_back(&outcome, flags.unsafe_fixes);
    if held > 0 {
        head.push_str(&format!(
            "{} an unsafe fix: rerun with --unsafe-fixes to apply them\n",
            crate::catalog::plural(held, "finding has", "findings have")
        ));
    }
    match super::check_outcome(g, args, cwd, outcome)? {
        Output::Check {
            text,
            outcome,
            files,
            stream,
        } => Ok(Output::Check {
            // A machine format stays parseable: the summary is for people.
            text: if g.quiet || g.format != crate::output::Format::Human {
                text
            } else {
                head + &text
            },
            outcome,
            files,
            stream,
        }),
        other => Ok(other),
    }
}

/// `--verify`: the proof of what this run wrote (`fix::proof`).
fn prove(
    args: &CheckArgs,
    cwd: &Path,
    ov: &crate::settings::Overrides,
    written: &BTreeMap<PathBuf, ()>,
) -> Result<crate::mirror::gate_cmd::GateRun, CliError> {
    let fixed: std::collections::BTreeSet<PathBuf> = written
        .keys()
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .cloned()
        .collect();
    let (plan, plan_my) = engine::inspect(&args.paths, cwd, ov, |ctx| {
        (
            crate::fix::proof::plan(ctx, &fixed),
            crate::fix::proof::plan_mysql(ctx, &fixed),
        )
    })?;
    let mut text = format!(
        "platcheck fix: wrote {}\n",
        crate::catalog::plural(written.len(), "file", "files")
    );
    let mut failures = 0;
    if !plan_my.histories.is_empty() {
        let proof = match &args.fixes.verify_mysql_url {
            Some(url) => crate::fix::proof::mariadb::run(&plan_my, url),
            None => {
                let server = crate::sql::verify::ephemeral::Server::start(
                    crate::sql::verify::ephemeral_bins::Kind::MariaDb,
                    None,
                )
                .map_err(|e| CliError(format!("fix --verify: {e} (or pass --verify-mysql-url)")))?;
                crate::fix::proof::mariadb::run(&plan_my, server.url())
            }
        }
        .map_err(|e| CliError(format!("fix --verify: {e}")))?;
        text.push_str(&proof.text);
        failures += proof.failures;
    }
    if plan.histories.is_empty() {
        if plan_my.histories.is_empty() {
            text.push_str(
                "fix --verify: no PostgreSQL or MySQL migration was fixed: nothing to prove\n",
            );
        }
        return Ok(gate(text, failures, Vec::new()));
    }
    let proof = match &args.fixes.verify_url {
        Some(url) => crate::fix::proof::run(&plan, url),
        None => {
            let server = crate::sql::verify::ephemeral::Server::start(
                crate::sql::verify::ephemeral_bins::Kind::Postgres,
                None,
            )
            .map_err(|e| CliError(format!("fix --verify: {e} (or pass --verify-url)")))?;
            crate::fix::proof::run(&plan, server.url())
        }
    }
    .map_err(|e| CliError(format!("fix --verify: {e}")))?;
    text.push_str(&proof.text);
    Ok(gate(text, failures + proof.failures, Vec::new()))
}

fn gate(text: String, hits: usize, errors: Vec<String>) -> crate::mirror::gate_cmd::GateRun {
    crate::mirror::gate_cmd::GateRun {
        text,
        hits,
        warnings: Vec::new(),
        errors,
    }
}

fn selected(f: &Finding, unsafe_fixes: bool) -> Option<&Fix> {
    let fix = f.fix.as_ref()?;
    match fix.effective(f.rule) {
        FixSafety::Safe => Some(fix),
        FixSafety::Unsafe if unsafe_fixes => Some(fix),
        _ => None,
    }
}

fn held_back(outcome: &Outcome, unsafe_fixes: bool) -> usize {
    outcome
        .findings
        .iter()
        .filter(|f| f.fix.is_some() && selected(f, unsafe_fixes).is_none())
        .filter(|f| {
            f.fix
                .as_ref()
                .is_some_and(|x| x.effective(f.rule) == FixSafety::Unsafe)
        })
        .count()
}

/// The fixes of one run that fit together, against the texts the run read.
pub fn plan_for(outcome: &Outcome, unsafe_fixes: bool) -> Plan {
    let fixes: Vec<&Fix> = outcome
        .findings
        .iter()
        .filter_map(|f| selected(f, unsafe_fixes))
        .collect();
    let texts: BTreeMap<&Path, &str> = outcome
        .files
        .iter()
        .map(|s| (s.path.as_path(), &*s.text))
        .collect();
    apply::plan(&fixes, &|p| texts.get(p).map(|t| t.to_string()))
}

fn diffs(changes: &BTreeMap<PathBuf, Change>, cwd: &Path) -> String {
    changes
        .iter()
        .map(|(path, change)| apply::diff(&display_path(path, cwd), change))
        .collect()
}
