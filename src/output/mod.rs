//! Printers: each turns an `Outcome` into text. Nothing else prints.
pub mod escape;
pub mod gcc;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod isolate;
pub mod json;
pub mod junit;
pub mod sarif;

use crate::outcome::Outcome;
// Its old home; fingerprints are model data now.
pub use crate::fingerprint;
use crate::report;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
    Gitlab,
    Junit,
    Gcc,
    /// The launch-checklist report (see `platcheck report`).
    Markdown,
    Html,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        <Format as clap::ValueEnum>::from_str(s, true).ok()
    }
}

pub fn render(format: Format, outcome: &Outcome, style: human::Style) -> String {
    match format {
        Format::Human => human::render(outcome, style),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome),
        Format::Github => github::render(outcome),
        Format::Gitlab => gitlab::render(outcome),
        Format::Junit => junit::render(outcome),
        Format::Gcc => gcc::render(outcome),
        Format::Markdown => report::render(report::Format::Markdown, outcome, &Default::default()),
        Format::Html => report::render(report::Format::Html, outcome, &Default::default()),
    }
}
