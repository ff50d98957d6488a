//! The EV family: event-driven boundaries.
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

pub mod ev053_schema_compat;

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        id: RuleId::EV053,
        check: Check::Workspace(ev053_schema_compat::check),
    }]
}
