//! The rules, in parallel: each workspace rule writes into its own sink,
//! and the sinks are joined in catalogue order, so the output does not
//! depend on scheduling. A rule that panics becomes a PC000 finding.
use super::isolate;
use super::loading::panic_text;
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::registry::{Check, RuleCtx};
use crate::source::Span;
use rayon::prelude::*;

/// Runs every rule this run enables and adds their reports and notes to `sink`.
pub(super) fn run(ctx: &RuleCtx, sink: &mut Sink) {
    let settings = ctx.settings;
    // `platcheck probe` runs the probe family only (the loader's PC
    // findings still come through: a contract it cannot read is not probed).
    let only_probe = settings.probe.as_ref().is_some_and(|p| p.only_probe_rules);
    let per_rule: Vec<Sink> = crate::rules::entries()
        .par_iter()
        .filter(|e| settings.runs(e.id))
        .filter(|e| !only_probe || crate::rules::pr::covers(e.id))
        .filter_map(|e| match e.check {
            Check::Workspace(check) => Some((e.id, check)),
            Check::Engine => None,
        })
        .map(|(id, check)| {
            let mut local = Sink::default();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                isolate::inject_rule_panic(id);
                check(ctx, &mut local)
            }));
            match result {
                Ok(()) => local,
                // One broken rule must not take the run down: report it and go on.
                // With no file to point at, it still reaches the output: the
                // run gets a file of its own below.
                Err(payload) => {
                    let mut failed = Sink::default();
                    failed.push(Report::new(RuleId::PC000, 0, Span::empty(0)).var(
                        "detail",
                        format!("rule {id} failed: {}", panic_text(&payload)),
                    ));
                    failed
                }
            }
        })
        .collect();
    for mut local in per_rule {
        sink.reports.append(&mut local.reports);
        sink.notes.append(&mut local.notes);
    }
}
