//! One folder per rule family, one file per rule.
pub mod cl;
pub mod ev;
pub mod mg;
pub mod mr;
pub mod pc;
pub mod xr;
