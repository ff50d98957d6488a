//! The replay: each history (`history::plan`) in the tool's order, one
//! schema model per history, starting from its dumps; each down script
//! judged on a view of the model after its own up step, so nothing a down
//! script does leaks forward.
use super::analysis::{Analysis, FileAnalysis, Role, Source, analyze_source};
use super::history::{self, TxMode, Unit};
use super::ops::Op;
use super::schema::Model;
use crate::settings::Settings;
use crate::workspace::Workspace;
use std::borrow::Cow;

pub fn analyze(ws: &Workspace, settings: &Settings) -> Analysis {
    analyze_observed(ws, settings, &ObservedRows::new())
}

/// Cluster name -> table (lower case) -> row estimate seen on the server.
pub type ObservedRows =
    std::collections::BTreeMap<String, std::collections::BTreeMap<String, u128>>;

/// The replay with the table sizes a probe observed (`check --probe`):
/// they replace what the Cluster's `table_rows` declares, so a lock on a
/// table that grew is judged as on the large table it is.
pub fn analyze_observed(ws: &Workspace, settings: &Settings, observed: &ObservedRows) -> Analysis {
    let mut hist = history::plan(ws, settings);
    for ctx in hist.ctx.values_mut() {
        if let Some(rows) = ctx.cluster.as_ref().and_then(|c| observed.get(c)) {
            ctx.table_rows
                .extend(rows.iter().map(|(t, r)| (t.clone(), *r)));
        }
    }
    // Groups of one history are adjacent (a Cluster's directories).
    // A history without a named file can only yield findings that a run
    // limited to named files drops: it is not replayed.
    let histories: Vec<&[history::Group]> = hist
        .groups
        .chunk_by(|a, b| a.history == b.history)
        .filter(|groups| {
            settings
                .report_only
                .as_ref()
                .is_none_or(|named| groups.iter().any(|g| touches(ws, g, named)))
        })
        .collect();
    // Histories share nothing (one model each), so they are replayed in
    // parallel and their results joined in plan order: the output does not
    // depend on scheduling.
    let files = in_parallel(&histories, |groups| {
        let mut files = Vec::new();
        let mut model = Model::default();
        // The dumps only seed the model, before any step: never linted.
        for u in groups.iter().flat_map(|g| &g.baseline) {
            let slot = &mut Slot::Live(&mut model);
            run(ws, &hist, u, &TxMode::None, Role::Up, slot);
        }
        let stop = settings
            .report_only
            .as_ref()
            .and_then(|named| stop_after(ws, groups, named));
        for (i, g) in groups.iter().enumerate() {
            let steps = match stop {
                Some((last, _)) if i > last => break,
                Some((last, step)) if i == last => step + 1,
                _ => usize::MAX,
            };
            replay(ws, &hist, g, settings, &mut model, &mut files, steps);
        }
        files
    });
    let analysis = Analysis {
        files: files.into_iter().flatten().collect(),
        problems: hist.problems,
    };
    // The schema models, the token lists and sqlparser's trees are freed
    // by now, in holes between the statements kept: their pages go back
    // before the rules fill new ones with reports (issue 21).
    crate::memory::release_freed();
    analysis
}

/// `f` over every item on scoped threads (one per core, each taking the
/// next item), the results in item order. Not rayon: the analysis runs
/// inside a rule's `OnceLock` on a rayon worker, and a worker waiting for
/// rayon jobs may pick up another rule that asks for the same `OnceLock`,
/// which would deadlock. A panic is passed on with its own payload, so the
/// engine reports it as before.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut all = work();
        for h in helpers {
            match h.join() {
                Ok(done) => all.extend(done),
                Err(payload) => std::panic::resume_unwind(payload),
            }
        }
        all
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

fn touches(ws: &Workspace, g: &history::Group, named: &[std::path::PathBuf]) -> bool {
    let units = g.baseline.iter().chain(
        g.steps
            .iter()
            .flat_map(|s| std::iter::once(&s.up).chain(&s.downs)),
    );
    units.into_iter().any(|u| is_named(ws, u, named))
}

fn is_named(ws: &Workspace, u: &Unit, named: &[std::path::PathBuf]) -> bool {
    let p = crate::source::normalize(&ws.files[u.file].path);
    named.iter().any(|n| p.starts_with(n))
}

/// The last step (group, step) of a history that holds a named file, in a
/// run limited to named files: the model only moves forward, so the steps
/// after it change nothing the named files are judged against, and their
/// own findings would be dropped. `None` (replay everything) when a dump
/// is named or no step is.
fn stop_after(
    ws: &Workspace,
    groups: &[history::Group],
    named: &[std::path::PathBuf],
) -> Option<(usize, usize)> {
    if groups
        .iter()
        .flat_map(|g| &g.baseline)
        .any(|u| is_named(ws, u, named))
    {
        return None;
    }
    let mut last = None;
    for (i, g) in groups.iter().enumerate() {
        for (j, step) in g.steps.iter().enumerate() {
            if std::iter::once(&step.up)
                .chain(&step.downs)
                .any(|u| is_named(ws, u, named))
            {
                last = Some((i, j));
            }
        }
    }
    last
}

/// One group's first `steps` steps in order, each down judged after its
/// own up step.
fn replay(
    ws: &Workspace,
    hist: &history::History,
    g: &history::Group,
    settings: &Settings,
    model: &mut Model,
    files: &mut Vec<FileAnalysis>,
    steps: usize,
) {
    // Objects created by earlier steps of the change being replayed: they
    // ship in the same deploy, so nobody can be using them yet.
    let mut change: Option<&str> = None;
    let mut fresh: Vec<String> = Vec::new();
    for step in g.steps.iter().take(steps) {
        if step.change.is_none() || step.change.as_deref() != change {
            fresh.clear();
        }
        change = step.change.as_deref();
        let mode = g.tx.mode(&step.up);
        let mut up = run(ws, hist, &step.up, &mode, Role::Up, &mut Slot::Live(model));
        up.layout = Some(g.layout);
        up.tool = g.tx.tool;
        if change.is_some() {
            let made: Vec<String> = up.created.keys().cloned().collect();
            for name in &fresh {
                up.created.entry(name.clone()).or_insert(0);
            }
            fresh.extend(made);
        }
        files.push(up);
        if !settings.sql.lint_down {
            continue;
        }
        for d in &step.downs {
            let note = format!(
                " ({}: judged against the schema after {})",
                d.label, step.up.label
            );
            let role = Role::Down { note };
            let after_up = &mut Slot::Scratch(Box::new(Cow::Borrowed(&*model)));
            files.push(run(ws, hist, d, &g.tx.mode(d), role, after_up));
        }
    }
}

/// The schema a script is judged against: the history's own model, which
/// the script moves forward, or a scratch view of it for a down script,
/// copied only when a statement changes it and a later one could see that.
pub enum Slot<'a> {
    Live(&'a mut Model),
    /// Boxed: a model is large, the borrowed slot a pointer.
    Scratch(Box<Cow<'a, Model>>),
}

impl Slot<'_> {
    pub fn get(&self) -> &Model {
        match self {
            Slot::Live(m) => m,
            Slot::Scratch(m) => m,
        }
    }
    /// Records what a statement declares; in a scratch view, nothing after
    /// the last statement can read it, so the copy is skipped.
    pub fn apply(&mut self, op: &Op, last: bool) {
        match self {
            Slot::Live(m) => m.apply(op),
            Slot::Scratch(_) if last => {}
            Slot::Scratch(m) => m.to_mut().apply(op),
        }
    }
}

fn run(
    ws: &Workspace,
    hist: &history::History,
    unit: &Unit,
    tx: &TxMode,
    role: Role,
    model: &mut Slot,
) -> FileAnalysis {
    let full = &ws.files[unit.file].text;
    let (base, text) = unit.window(full);
    // Every unit comes from a file `plan` gave a context.
    let mut ctx = hist.ctx[&unit.file].clone();
    ctx.in_transaction = *tx != TxMode::None;
    let src = Source {
        text: &text,
        base,
        blocks: &unit.blocks,
        tx: tx.clone(),
    };
    let mut fa = analyze_source(&src, unit.file, ctx, model);
    fa.role = role;
    if unit.keep.as_ref().is_some_and(|k| k.len() > 1) {
        fa.window = Some((base, text.into_owned()));
    }
    fa
}

#[cfg(test)]
mod tests {
    use super::in_parallel;

    #[test]
    fn results_come_back_in_item_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..64).collect();
        // Early items take longest, so they finish last on any schedule.
        let out = in_parallel(&items, |&i| {
            std::thread::sleep(std::time::Duration::from_micros((64 - i) * 50));
            i * 10
        });
        assert_eq!(out, items.iter().map(|i| i * 10).collect::<Vec<_>>());
        assert_eq!(in_parallel(&[] as &[u64], |&i| i), Vec::<u64>::new());
    }

    #[test]
    fn a_panic_keeps_its_own_message() {
        let items: Vec<u32> = (0..8).collect();
        let err = std::panic::catch_unwind(|| {
            in_parallel(&items, |&i| {
                assert!(i != 5, "history {i} broke");
                i
            })
        })
        .unwrap_err();
        let text = err
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()));
        assert_eq!(text.as_deref(), Some("history 5 broke"));
    }
}
