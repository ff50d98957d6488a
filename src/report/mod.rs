//! The launch-checklist report: per Cluster and per EventBoundary, the
//! operations checklist of its reference document. Each item declares its
//! evidence in `rules/checklists/*` (fields, values, rules that must not
//! fire, inputs it needs), and its status follows from that evidence: met,
//! not met, missing evidence, waived, not checked or not applicable. It
//! works on the ordinary `Outcome` of a run, so it shows exactly what
//! `check` sees; Markdown, HTML and JSON render one model.
pub mod attribution;
pub mod checklist;
pub mod conditions;
pub mod evidence;
pub mod html;
mod html_items;
pub mod json;
mod judge;
pub mod markdown;
mod markdown_items;
pub mod model;
pub mod when;

use crate::outcome::Outcome;
use crate::source::normalize;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    Json,
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Summary, owners and one line per contract (for CI step summaries).
    pub compact: bool,
    pub links: Links,
}

/// The report of a run with the facts the outcome knows by itself (the
/// revision is not looked up: `cli::report_facts` asks git for it).
pub fn render(format: Format, outcome: &Outcome, opts: &Options) -> String {
    render_model(
        format,
        &model::build(outcome, model::RunFacts::of(outcome)),
        opts,
    )
}

/// Renders a built report.
pub fn render_model(format: Format, report: &model::Report, opts: &Options) -> String {
    match format {
        Format::Markdown => markdown::render(report, opts),
        Format::Html => html::render(report, opts),
        Format::Json => json::render(report),
    }
}

/// How file:line links are written: a prefix joined to the file's display
/// path (relative to the working directory), then `#L<line>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    prefix: String,
}

impl Links {
    /// Links under a URL, e.g. `https://github.com/o/r/blob/<sha>/`.
    pub fn url(base: &str) -> Links {
        let mut prefix = base.to_string();
        if !prefix.ends_with('/') {
            prefix.push('/');
        }
        Links { prefix }
    }

    /// Links that work from the directory the report is written to (or
    /// from the working directory when it goes to stdout).
    pub fn relative(out_file: Option<&Path>, cwd: &Path) -> Links {
        let Some(dir) = out_file.and_then(Path::parent) else {
            return Links::default();
        };
        let dir = normalize(&cwd.join(dir));
        let cwd = normalize(cwd);
        let common = dir
            .components()
            .zip(cwd.components())
            .take_while(|(a, b)| a == b)
            .count();
        let mut prefix = "../".repeat(dir.components().count() - common);
        for c in cwd.components().skip(common) {
            prefix.push_str(&c.as_os_str().to_string_lossy());
            prefix.push('/');
        }
        Links { prefix }
    }

    pub fn file(&self, path: &str, line: usize) -> String {
        let target = if path.starts_with('/') {
            format!("file://{path}")
        } else {
            format!("{}{path}", self.prefix)
        };
        format!("{}#L{line}", encode(&target))
    }
}

/// Percent-encodes what would end or confuse a link target.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            ' ' | '"' | '<' | '>' | '(' | ')' | '#' | '?' | '%' | '`' | '\'' | '[' | ']' => {
                let mut buf = [0u8; 4];
                for b in ch.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_report_file() {
        let cwd = Path::new("/repo");
        let l = Links::relative(Some(Path::new("out/report.html")), cwd);
        assert_eq!(
            l.file("contracts/a b.yaml", 3),
            "../contracts/a%20b.yaml#L3"
        );
        let l = Links::relative(Some(Path::new("report.html")), cwd);
        assert_eq!(l.file("contracts/a.yaml", 3), "contracts/a.yaml#L3");
        let l = Links::relative(Some(Path::new("/tmp/r.html")), cwd);
        assert_eq!(l.file("c.yaml", 1), "../repo/c.yaml#L1");
        assert_eq!(
            Links::default().file("/abs/c.yaml", 2),
            "file:///abs/c.yaml#L2"
        );
        let l = Links::url("https://github.com/o/r/blob/abc");
        assert_eq!(
            l.file("c.yaml", 9),
            "https://github.com/o/r/blob/abc/c.yaml#L9"
        );
    }
}
