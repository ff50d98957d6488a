//! One folder per rule family, one file per rule.
pub mod mg;
pub mod pc;
