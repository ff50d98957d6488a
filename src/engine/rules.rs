//! The rules, in parallel: each workspace rule writes into its own sink,
//! and the sinks are joined in catalogue order, so the output does not
//! depend on scheduling. A rule that panics becomes a PC000 finding.
use super::isolate;
use super::loading::panic_text;
use crate::catalog::RuleId;
use crate::contracts::Kind;
use crate::emit::{Report, Sink};
use crate::registry::{Check, RuleCtx};
use crate::source::Span;
use crate::workspace::Workspace;
use rayon::prelude::*;

/// Runs every rule this run enables and adds their reports and notes to
/// `sink`, except the contract families `skip` says cannot report on what
/// the run shows.
pub(super) fn run(ctx: &RuleCtx, sink: &mut Sink, skip: Skip) {
    let settings = ctx.settings;
    // `platcheck probe` runs the probe family only (the loader's PC
    // findings still come through: a contract it cannot read is not probed).
    let only_probe = settings.probe.as_ref().is_some_and(|p| p.only_probe_rules);
    let per_rule: Vec<Sink> = crate::rules::entries()
        .par_iter()
        .filter(|e| settings.runs(e.id))
        .filter(|e| !only_probe || crate::rules::pr::covers(e.id))
        .filter(|e| !skip.skips(e.id))
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
                // A rule's list grew by doubling: give back the spare room
                // before every rule's reports are held at once.
                Ok(()) => {
                    local.reports.shrink_to_fit();
                    local
                }
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
    // Sized once: appending grows by doubling, copying every report and
    // keeping up to twice the room, while each rule's own list is alive.
    sink.reports
        .reserve_exact(per_rule.iter().map(|l| l.reports.len()).sum());
    for mut local in per_rule {
        let bytes = local.reports.len() * std::mem::size_of::<Report>();
        sink.reports.append(&mut local.reports);
        sink.notes.append(&mut local.notes);
        // The run's list is written as the rules' lists are freed: hand a
        // large one's pages back before the next is copied, or every report
        // is held twice at the end of the join (beside the SQL analysis:
        // the run's peak, issue 21).
        drop(local);
        if bytes > 1 << 20 {
            crate::memory::release_freed();
        }
    }
}

/// Rule families a run limited to named files need not run. Each CL
/// rule reports only through `Contract::report` on the clusters it loops
/// over, each EV and XR rule on the boundaries it loops over (EV053 also on
/// the boundary's payload schema file), and their notes only for reported
/// contracts; so when no shown file holds a contract of the kind (and none
/// is a file that could be a payload schema), the family's findings would
/// all be dropped by `scope::restrict`. `tests/entry_points.rs` compares a
/// named run with the whole run file by file.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Skip {
    pub clusters: bool,
    pub boundaries: bool,
    /// The mirror rules but MR002: each reports only on the gated Markdown
    /// documents it loops over (MR004/MR005 on one of a sibling pair).
    /// MR002 also carries the config's `mirror_gates` problems, so it runs.
    pub markdown: bool,
}

impl Skip {
    fn skips(self, id: RuleId) -> bool {
        match &id.as_str()[..2] {
            "CL" => self.clusters,
            "EV" | "XR" => self.boundaries,
            "MR" => self.markdown && id != RuleId::MR002,
            _ => false,
        }
    }
}

/// What a run that shows only the `shown` files (by index) need not run.
pub(super) fn skip_for(ws: &Workspace, shown: &[bool], config: Option<&str>) -> Skip {
    let on = |i: usize| shown.get(i).copied().unwrap_or(true);
    let holds = |kind: Kind| ws.contracts.iter().any(|c| c.kind == kind && on(c.file));
    // A shown file that is none of those the families report on: run everything.
    let other = ws.shows_other_input(shown, config);
    let markdown = ws.markdown.iter().any(|&i| on(i));
    Skip {
        clusters: !other && !holds(Kind::Cluster),
        boundaries: !other && !holds(Kind::EventBoundary),
        markdown: !other && !markdown,
    }
}
