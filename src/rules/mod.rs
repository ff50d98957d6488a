//! One folder per rule family, one file per rule.
pub mod pc;
pub mod ev;
pub mod xr;
