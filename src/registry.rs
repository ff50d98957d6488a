//! The one table from rule id to the code that checks it. Each family lists
//! its own rules (`rules/<fam>/mod.rs`); this file only joins the families.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::settings::Settings;
use crate::workspace::Workspace;
use jiff::civil::Date;

/// What a rule gets to look at.
pub struct RuleCtx<'a> {
    pub ws: &'a Workspace,
    pub settings: &'a Settings,
}

impl RuleCtx<'_> {
    /// "today" for every staleness rule (`--today`, config, or system date).
    pub fn today(&self) -> Date {
        self.settings.today
    }
}

pub type CheckFn = fn(&RuleCtx, &mut Sink);

pub enum Check {
    /// Emitted by the engine itself while loading inputs (the PC family).
    Engine,
    /// Runs over the whole workspace.
    Workspace(CheckFn),
}

pub struct Entry {
    pub id: RuleId,
    pub check: Check,
}

pub fn entries() -> Vec<Entry> {
    let mut all = crate::rules::pc::entries();
    all.extend(crate::rules::cl::entries());
    all.extend(crate::rules::ev::entries());
    all.extend(crate::rules::mr::entries());
    all.extend(crate::rules::xr::entries());
    all.extend(crate::rules::mg::entries());
    all.sort_by_key(|e| e.id);
    all
}
