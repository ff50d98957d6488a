//! The PC family: inputs, config and suppressions. Most of these findings
//! come from the engine while it loads inputs, so their entries carry no
//! check of their own; PC009 reads the run's SQL analysis like the MG rules.
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

mod pc009_sql_statement_not_parsed;

pub fn entries() -> Vec<Entry> {
    [
        RuleId::PC000,
        RuleId::PC001,
        RuleId::PC002,
        RuleId::PC003,
        RuleId::PC004,
        RuleId::PC005,
        RuleId::PC006,
        RuleId::PC007,
        RuleId::PC008,
        RuleId::PC010,
        RuleId::PC011,
    ]
    .into_iter()
    .map(|id| Entry {
        id,
        check: Check::Engine,
    })
    .chain([Entry {
        id: RuleId::PC009,
        check: Check::Workspace(pc009_sql_statement_not_parsed::check),
    }])
    .collect()
}
