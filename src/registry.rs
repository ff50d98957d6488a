//! What a rule is and what it gets to look at. The table of every rule is
//! `rules::entries()` (each family lists its own rules in
//! `rules/<fam>/mod.rs`); this file only defines its shape, so rule files
//! import it without importing each other.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::probe::{self, Observations};
use crate::settings::Settings;
use crate::sql::analysis::{self, Analysis};
use crate::workspace::Workspace;
use jiff::civil::Date;
use std::sync::OnceLock;

/// Analyses computed at most once per run, on first use, for the rules
/// that share them. The engine makes one per run, next to the workspace,
/// which holds only the inputs.
#[derive(Debug, Default)]
pub struct Analyses {
    sql: OnceLock<Analysis>,
    probe: OnceLock<Observations>,
}

/// What a rule gets to look at.
pub struct RuleCtx<'a> {
    pub ws: &'a Workspace,
    pub settings: &'a Settings,
    pub analyses: &'a Analyses,
}

impl<'a> RuleCtx<'a> {
    /// "today" for every staleness rule (`--today`, config, or system date).
    pub fn today(&self) -> Date {
        self.settings.today
    }

    /// The migration analysis of every SQL file (split, classified, judged
    /// against the lock table), computed by the first rule that asks.
    /// Under `check --probe`, the table sizes observed on the servers
    /// replace the declared ones.
    pub fn sql(&self) -> &'a Analysis {
        self.analyses.sql.get_or_init(|| match self.probe() {
            Some(obs) => {
                analysis::analyze_observed(self.ws, self.settings, &observed_rows(self, obs))
            }
            None => analysis::analyze(self.ws, self.settings),
        })
    }
}

#[cfg(test)]
impl Analyses {
    /// Analyses whose probe has already run: the PR rules judged on
    /// observations a test constructs (states the local servers cannot show).
    pub(crate) fn with_probe(obs: Observations) -> Analyses {
        let a = Analyses::default();
        let _ = a.probe.set(obs);
        a
    }
}

impl<'a> RuleCtx<'a> {
    /// What the running systems showed (`platcheck probe`, `check --probe`),
    /// probed by the first rule that asks; `None` when the run does not probe.
    pub fn probe(&self) -> Option<&'a Observations> {
        let request = self.settings.probe.as_ref()?;
        Some(
            self.analyses
                .probe
                .get_or_init(|| probe::probe(self.ws, request)),
        )
    }
}

/// The row estimates of every probed Cluster, by cluster and table.
fn observed_rows(ctx: &RuleCtx, obs: &Observations) -> analysis::ObservedRows {
    let mut out = analysis::ObservedRows::new();
    for (i, c) in ctx.ws.contracts.iter().enumerate() {
        if let Some((_, facts)) = obs.db(i) {
            let rows = out.entry(c.name.clone()).or_default();
            for t in &facts.tables {
                if let Some(Some(n)) = t.rows {
                    rows.insert(t.name.to_ascii_lowercase(), n);
                }
            }
        }
    }
    out
}

pub type CheckFn = fn(&RuleCtx, &mut Sink);

pub enum Check {
    /// Emitted by the engine itself while loading inputs (most of the PC family).
    Engine,
    /// Runs over the whole workspace.
    Workspace(CheckFn),
}

pub struct Entry {
    pub id: RuleId,
    pub check: Check,
}
