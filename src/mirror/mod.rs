//! Mirrored architecture documents (the MR rules and `platcheck gate`).
//!
//! A document's mirrored region is every line before its stack-specific H2;
//! its forbidden tokens come from its own "Mirrored-section grep gate"
//! section (or the config); the tokens are POSIX EREs matched with GNU
//! `grep -E` semantics, so `platcheck gate FILE` prints exactly what the
//! document's own `awk … | grep -nE …` pipeline prints.
pub mod config;
pub mod doc;
pub mod ere;
pub mod gate_cmd;
pub mod section;
pub mod shell;
pub mod siblings;
pub mod tokens;
pub mod vocabulary;

use crate::contracts::yaml::Node;
use crate::workspace::Workspace;
use config::{GATE_HEADING, Gate, Tokens};
use doc::Doc;
use std::path::Path;
use tokens::Token;

/// One match of one token on one line of the mirrored region (the first
/// match of that token on the line). Offsets are bytes into the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub line: usize,
    pub column: usize,
    pub start: usize,
    pub end: usize,
    pub token: usize,
}

/// Every (line, token) hit in the region, in line then token order.
pub fn hits(doc: &Doc, tokens: &[Token]) -> Vec<Hit> {
    let mut out = Vec::new();
    for (n, line) in doc.region() {
        for (t, tok) in tokens.iter().enumerate() {
            if let Some(m) = tok.regex.find(line.text) {
                out.push(Hit {
                    line: n,
                    column: line.text[..m.start()].chars().count() + 1,
                    start: line.start + m.start(),
                    end: line.start + m.end(),
                    token: t,
                });
            }
        }
    }
    out
}

/// The lines grep would print: each region line with at least one hit.
pub fn hit_lines(doc: &Doc, tokens: &[Token]) -> Vec<usize> {
    doc.region()
        .filter(|(_, l)| tokens.iter().any(|t| t.regex.is_match(l.text)))
        .map(|(n, _)| n)
        .collect()
}

/// Which gate applies to a Markdown file: the first `mirror_gates` entry
/// whose `files` glob matches its path (relative to the config's folder),
/// else the document's own gate when it carries a gate section, else none.
pub fn gate_for<'g>(
    gates: &'g [Gate],
    default: &'g Gate,
    rel: &Path,
    text: &str,
) -> Option<&'g Gate> {
    if let Some(g) = gates
        .iter()
        .find(|g| g.files.as_ref().is_some_and(|m| m.is_match(rel)))
    {
        return Some(g);
    }
    if !text
        .to_ascii_lowercase()
        .contains(&GATE_HEADING.to_ascii_lowercase())
    {
        return None;
    }
    let d = Doc::parse(text, &default.boundary);
    // A lone-CR document is one line to awk, so its gate heading is not a
    // heading; it is still gated, so that MR003 reports why it cannot be.
    if d.lone_cr.is_some() {
        return Some(default);
    }
    section::find(&d).map(|_| default)
}

/// A gated document of the workspace.
pub struct Gated<'a> {
    pub file: usize,
    pub name: String,
    pub gate: &'a Gate,
    pub doc: Doc<'a>,
}

/// The configured gates plus the document default.
pub struct Gates {
    pub configured: Vec<Gate>,
    pub default: Gate,
    pub problems: Vec<crate::emit::Report>,
}

/// The gates of the parsed config document (`mirror_gates:`), if any.
pub fn gates(config_root: Option<&Node>) -> Gates {
    let (configured, problems) = config::read(config_root);
    Gates {
        configured,
        default: Gate::from_document(),
        problems,
    }
}

/// Every gated Markdown file of the workspace, parsed. Gate globs match
/// paths relative to `root` (the config's folder).
pub fn gated<'a>(ws: &'a Workspace, root: &Path, g: &'a Gates) -> Vec<Gated<'a>> {
    gated_of(ws, &ws.markdown, root, g)
}

/// The gated documents the run reports on (`Workspace::judges_file`), for
/// the rules that judge each document alone: a one-file run parsed all
/// 214 documents of the bench repo once per such rule.
pub fn judged<'a>(ws: &'a Workspace, root: &Path, g: &'a Gates) -> Vec<Gated<'a>> {
    // A gate's inline tokens are reported against the config, which every
    // run shows, by each document the gate matches.
    if g.configured
        .iter()
        .any(|gate| matches!(gate.tokens, Tokens::Inline(_)))
    {
        return gated(ws, root, g);
    }
    let files: Vec<usize> = ws
        .markdown
        .iter()
        .copied()
        .filter(|&f| ws.judges_file(f))
        .collect();
    gated_of(ws, &files, root, g)
}

fn gated_of<'a>(ws: &'a Workspace, files: &[usize], root: &Path, g: &'a Gates) -> Vec<Gated<'a>> {
    let mut out = Vec::new();
    for &file in files {
        let src = &ws.files[file];
        let rel = src.path.strip_prefix(root).unwrap_or(&src.path);
        let Some(gate) = gate_for(&g.configured, &g.default, rel, &src.text) else {
            continue;
        };
        let name = src
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        out.push(Gated {
            file,
            name,
            gate,
            doc: Doc::parse(&src.text, &gate.boundary),
        });
    }
    out
}

/// `\b<word>\b` for a literal word (a stack or vendor name), compiled once
/// per word for the process: a repository has a few of them for its
/// hundreds of documents (`None`: it does not compile). Cloning a compiled
/// `Regex` shares it.
pub(crate) fn whole_word(word: &str) -> Option<regex::Regex> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static WORDS: OnceLock<Mutex<HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let mut map = WORDS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    map.entry(word.to_string())
        .or_insert_with(|| regex::Regex::new(&format!(r"\b{}\b", regex::escape(word))).ok())
        .clone()
}
