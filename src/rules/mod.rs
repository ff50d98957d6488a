//! One folder per rule family, one file per rule.
pub mod mr;
pub mod pc;
