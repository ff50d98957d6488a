//! The document's own "### Mirrored-section grep gate": its bullet lists
//! (category → tokens) and its embedded `awk … | grep -nE …` command.
use super::config::GATE_HEADING;
use super::doc::{Doc, code_spans, heading};
use super::shell::{self, GateCommand};

/// A token as the bullet list writes it.
#[derive(Debug, Clone)]
pub struct Listed {
    pub pattern: String,
    pub category: String,
    /// Byte offset of the token in the document.
    pub offset: usize,
}

#[derive(Debug, Clone)]
pub struct Command {
    pub line: usize,
    /// The command text (fence content, continuation lines joined).
    pub text: String,
    pub offset: usize,
    pub parsed: Option<GateCommand>,
}

#[derive(Debug, Clone)]
pub struct GateSection {
    pub heading_line: usize,
    pub listed: Vec<Listed>,
    pub command: Option<Command>,
}

impl GateSection {
    /// The byte offset of `needle` in the command block, else of the block.
    pub fn command_offset(&self, doc: &Doc, needle: &str) -> usize {
        let Some(c) = &self.command else {
            return doc.lines[self.heading_line - 1].start;
        };
        doc.text[c.offset..]
            .find(needle)
            .filter(|&i| i < c.text.len() + 64)
            .map_or(c.offset, |i| c.offset + i)
    }
}

/// Finds the gate section (a heading, at any level, named "Mirrored-section
/// grep gate") and reads it.
pub fn find(doc: &Doc) -> Option<GateSection> {
    let h = doc
        .headings
        .iter()
        .find(|h| h.text.eq_ignore_ascii_case(GATE_HEADING))?;
    let end = doc
        .headings
        .iter()
        .find(|o| o.line > h.line && o.level <= h.level)
        .map_or(doc.lines.len(), |o| o.line - 1);
    let mut listed = Vec::new();
    let mut command = None;
    let mut category: Option<String> = None;
    let mut n = h.line + 1;
    while n <= end {
        if doc.fenced[n - 1] {
            let (block, next) = fence_block(doc, n, end);
            if command.is_none() && block.1.contains("grep") {
                command = Some(Command {
                    line: block.0,
                    offset: doc.lines[block.0 - 1].start,
                    parsed: shell::gate_command(&block.1),
                    text: block.1,
                });
            }
            n = next;
            continue;
        }
        let line = doc.line(n);
        let trimmed = line.trim_start();
        let bullet = ["- ", "* ", "+ "].iter().any(|b| trimmed.starts_with(b));
        if bullet {
            category = bold_lead(&trimmed[2..]);
        } else if trimmed.trim().is_empty() || heading(line).is_some() {
            category = None;
        }
        if let Some(cat) = &category {
            let after = if bullet {
                line.find("**")
                    .and_then(|a| line[a + 2..].find("**").map(|b| a + 2 + b + 2))
                    .unwrap_or(0)
            } else {
                0
            };
            for (tok, at) in code_spans(&line[after..]) {
                listed.push(Listed {
                    pattern: tok,
                    category: cat.clone(),
                    offset: doc.lines[n - 1].start + after + at,
                });
            }
        }
        n += 1;
    }
    Some(GateSection {
        heading_line: h.line,
        listed,
        command,
    })
}

/// `**Category** — …` gives `Category`.
fn bold_lead(s: &str) -> Option<String> {
    let rest = s.strip_prefix("**")?;
    let end = rest.find("**")?;
    let name = rest[..end].trim().trim_end_matches([':', '.']).trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The fenced block starting at line `open`: `((first content line, content),
/// the line after the block)`.
fn fence_block(doc: &Doc, open: usize, end: usize) -> ((usize, String), usize) {
    let mut n = open + 1;
    let mut content = Vec::new();
    while n <= end && doc.fenced[n - 1] {
        let t = doc.line(n).trim_end_matches('\r');
        let bare = t.trim_start();
        if (bare.starts_with("```") || bare.starts_with("~~~"))
            && bare.trim_matches(['`', '~']).trim().is_empty()
        {
            n += 1;
            break;
        }
        content.push(t);
        n += 1;
    }
    ((open + 1, content.join("\n")), n)
}
