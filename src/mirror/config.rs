//! The `mirror_gates` entries of platcheck.yaml (contracts.md, "Config
//! file"), with their defaults. A Markdown file is gated when an entry's
//! `files` glob matches it, or, matching no entry, when it carries its own
//! "Mirrored-section grep gate" section: READMEs and runbooks are never
//! touched.
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Report;
use crate::source::Span;
use globset::{Glob, GlobMatcher};
use regex::Regex;

pub const DEFAULT_BOUNDARY: &str = "^## .*-specific implementation patterns";
pub const GATE_HEADING: &str = "Mirrored-section grep gate";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Siblings {
    /// Both: the Sibling sync header and same file names (no config entry).
    Any,
    SameFileName,
    Header,
    None,
}

#[derive(Debug, Clone)]
pub enum Tokens {
    FromDocument,
    /// `(pattern, span in the config file)`.
    Inline(Vec<(String, Span)>),
}

#[derive(Debug, Clone)]
pub struct Gate {
    pub name: String,
    pub files: Option<GlobMatcher>,
    pub boundary: Regex,
    pub boundary_text: String,
    pub tokens: Tokens,
    pub siblings: Siblings,
    /// `(section, reason)`.
    pub allowed_divergence: Vec<(String, String)>,
}

/// The default boundary pattern, compiled once per process: every gate
/// starts from it, and every MR rule reads the gates (a `Regex` clone only
/// bumps a reference count).
fn default_boundary() -> Regex {
    static BOUNDARY: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(DEFAULT_BOUNDARY).expect("default boundary compiles")
    });
    BOUNDARY.clone()
}

impl Gate {
    /// The gate of a document that carries its own section and no entry.
    pub fn from_document() -> Gate {
        Gate {
            name: "document".into(),
            files: None,
            boundary: default_boundary(),
            boundary_text: DEFAULT_BOUNDARY.into(),
            tokens: Tokens::FromDocument,
            siblings: Siblings::Any,
            allowed_divergence: Vec::new(),
        }
    }

    pub fn allows(&self, section: &str, path: &str) -> Option<&str> {
        self.allowed_divergence
            .iter()
            .find(|(s, _)| s.trim() == section || s.trim() == path)
            .map(|(_, r)| r.as_str())
    }
}

/// The configured gates, and the problems found reading them (reported
/// against the config file, index 0).
pub fn read(root: Option<&Node>) -> (Vec<Gate>, Vec<Report>) {
    let mut gates = Vec::new();
    let mut problems = Vec::new();
    let Some(list) = root.and_then(|r| r.get("mirror_gates")) else {
        return (gates, problems);
    };
    for entry in list.as_seq() {
        let mut g = Gate::from_document();
        g.name = entry
            .get("name")
            .and_then(Node::as_str)
            .unwrap_or("unnamed")
            .to_string();
        if let Some(n) = entry.get("files")
            && let Some(glob) = n.as_str()
        {
            match Glob::new(glob) {
                Ok(m) => g.files = Some(m.compile_matcher()),
                Err(e) => problems.push(Report::new(RuleId::PC008, 0, n.span).var(
                    "detail",
                    format!("invalid glob `{glob}` in mirror_gates: {e}"),
                )),
            }
        }
        if let Some(n) = entry.get("boundary")
            && let Some(b) = n.as_str()
        {
            match Regex::new(b) {
                Ok(re) => {
                    g.boundary = re;
                    g.boundary_text = b.to_string();
                }
                Err(e) => problems.push(
                    Report::new(RuleId::MR002, 0, n.span)
                        .variant("bad_regex")
                        .var("boundary", b)
                        .var("detail", first_line(&e.to_string())),
                ),
            }
        }
        if let Some(n) = entry.get("tokens") {
            let inline: Vec<(String, Span)> = n
                .as_seq()
                .iter()
                .filter_map(|t| t.as_str().map(|s| (s.to_string(), t.span)))
                .collect();
            if !n.as_seq().is_empty() {
                g.tokens = Tokens::Inline(inline);
            }
        }
        g.siblings = match entry.get("siblings").and_then(Node::as_str) {
            Some("same-file-name") => Siblings::SameFileName,
            Some("header") => Siblings::Header,
            Some("none") => Siblings::None,
            _ => Siblings::Any,
        };
        if let Some(list) = entry.get("allowed_divergence") {
            for d in list.as_seq() {
                if let Some(s) = d.get("section").and_then(Node::as_str) {
                    let reason = d.get("reason").and_then(Node::as_str).unwrap_or("");
                    g.allowed_divergence
                        .push((s.to_string(), reason.to_string()));
                }
            }
        }
        gates.push(g);
    }
    (gates, problems)
}

fn first_line(s: &str) -> String {
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_string()
}
