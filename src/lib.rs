//! platcheck: a linter and CI gate for data-platform contracts, event-driven
//! boundaries, migration SQL and mirrored architecture docs.
//!
//! The library does all the work and returns plain data; the binary only
//! parses arguments, prints, and picks the exit code.
pub mod baseline;
pub mod bytes;
pub mod catalog;
pub mod changed;
pub mod cli;
pub mod compat;
pub mod contracts;
pub mod discover;
pub mod emit;
pub mod engine;
pub mod finding;
pub mod fingerprint;
pub mod fix;
pub mod init;
pub mod lsp;
pub mod memory;
pub mod mirror;
pub mod outcome;
pub mod output;
pub mod probe;
pub mod read;
pub mod registry;
pub mod report;
pub mod rules;
pub mod settings;
pub mod source;
pub mod sql;
pub mod suppress;
pub mod workspace;

pub use catalog::RuleId;
pub use engine::run;
pub use finding::{Finding, Severity};
pub use outcome::Outcome;
