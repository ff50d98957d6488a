//! The MR family: mirrored architecture documents (src/mirror does the
//! reading; each rule turns one part of it into findings).
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

mod mr001_forbidden_token;
mod mr002_boundary_missing;
mod mr003_gate_section;
mod mr004_sibling_drift;
mod mr005_sibling_missing;
mod mr006_vendor_names;
mod mr007_plain_word;

pub fn entries() -> Vec<Entry> {
    let w = |id, f| Entry {
        id,
        check: Check::Workspace(f),
    };
    vec![
        w(RuleId::MR001, mr001_forbidden_token::check),
        w(RuleId::MR002, mr002_boundary_missing::check),
        w(RuleId::MR003, mr003_gate_section::check),
        w(RuleId::MR004, mr004_sibling_drift::check),
        w(RuleId::MR005, mr005_sibling_missing::check),
        w(RuleId::MR006, mr006_vendor_names::check),
        w(RuleId::MR007, mr007_plain_word::check),
    ]
}
