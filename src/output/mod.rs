//! Printers: each turns an `Outcome` into text. Nothing else prints.
mod diag;
pub mod escape;
pub mod gcc;
pub mod github;
pub mod gitlab;
pub mod human;
#[cfg(test)]
mod human_oracle;
#[cfg(test)]
mod human_tests;
pub mod isolate;
pub mod json;
pub mod junit;
pub mod sarif;
mod snippet;
pub mod stream;
mod theme;

use crate::outcome::Outcome;
use std::io;
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

/// Whether `write` streams this format (else it renders it whole first).
pub fn streams(format: Format) -> bool {
    matches!(
        format,
        Format::Human | Format::Json | Format::Sarif | Format::Junit
    )
}

/// Writes `format` to `w` as `render` would, the streaming formats file by
/// file, with a printer that panics isolated as `isolate` describes (the
/// findings it fails on become PC000s in `outcome`). An error is only ever
/// the writer's.
pub fn write(
    format: Format,
    outcome: &mut Outcome,
    style: human::Style,
    w: &mut dyn io::Write,
) -> io::Result<()> {
    let name = format!("{format:?}").to_ascii_lowercase();
    let repairs = match format {
        Format::Human => stream::write(outcome, &name, &human::Printer::new(outcome, style), w)?,
        Format::Json => stream::write(outcome, &name, &json::Printer::new(outcome), w)?,
        Format::Sarif => stream::write(outcome, &name, &sarif::Printer::new(outcome), w)?,
        // JUnit's header counts the test cases, which a finding the printer
        // fails on (turned PC000) would change after the header was written:
        // a quiet run into nothing first (JUnit is cheap to print twice)
        // says whether it streams or, rarely, is rendered whole.
        Format::Junit if stream::dry_run(outcome, &name, &junit::Printer::new(outcome)) => {
            stream::write(outcome, &name, &junit::Printer::new(outcome), w)?
        }
        _ => {
            let text = isolate::render_isolated(outcome, &name, |o| render(format, o, style));
            return w.write_all(text.as_bytes());
        }
    };
    repairs.apply(outcome, &name);
    Ok(())
}
