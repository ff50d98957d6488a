//! The PC family: inputs, config and suppressions. These findings come from
//! the engine while it loads inputs, so their entries carry no check of their own.
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

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
    .collect()
}
