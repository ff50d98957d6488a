//! `platcheck fix` and `check --fix` / `--diff`: run the check, fit the
//! fixes of its findings together (`fix::apply`), write them (or print them
//! as a unified diff), and check again until nothing fits any more, so a
//! fix whose bytes another fix changed is judged on the new text.
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
}

/// Rounds of check → fix before giving up on fixes that keep clashing.
const PASSES: usize = 8;

pub fn run(g: &Global, args: &CheckArgs, cwd: &Path) -> Result<Output, CliError> {
    let ov = overrides(g, args, cwd);
    let flags = &args.fixes;
    if flags.diff {
        let outcome = engine::run(&args.paths, cwd, &ov)?;
        let plan = plan_for(&outcome, flags.unsafe_fixes);
        let text = diffs(&plan.changes, cwd);
        let mut warnings = Vec::new();
        let held = held_back(&outcome, flags.unsafe_fixes);
        if held > 0 {
            warnings.push(format!(
                "{held} more finding(s) have an unsafe fix: add --unsafe-fixes to include them"
            ));
        }
        return Ok(Output::Gate(crate::mirror::gate_cmd::GateRun {
            text,
            hits: plan.changes.len(),
            warnings,
            errors: Vec::new(),
        }));
    }
    let mut applied = 0;
    let mut written: BTreeMap<PathBuf, ()> = BTreeMap::new();
    for _ in 0..PASSES {
        let outcome = engine::run(&args.paths, cwd, &ov)?;
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
    let outcome = engine::run(&args.paths, cwd, &ov)?;
    let mut head = format!(
        "platcheck fix: applied {applied} fix(es) to {} file(s)\n",
        written.len()
    );
    for path in written.keys() {
        head.push_str(&format!("  fixed {}\n", display_path(path, cwd)));
    }
    let held = held_back(&outcome, flags.unsafe_fixes);
    if held > 0 {
        head.push_str(&format!(
            "{held} finding(s) have an unsafe fix: rerun with --unsafe-fixes to apply them\n"
        ));
    }
    match super::check_outcome(g, args, cwd, outcome)? {
        Output::Check {
            text,
            outcome,
            files,
        } => Ok(Output::Check {
            text: if g.quiet { text } else { head + &text },
            outcome,
            files,
        }),
        other => Ok(other),
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
