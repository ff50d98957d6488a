//! Which patterns a document is matched against, and MR003 when its gate
//! section contradicts itself. The embedded grep command is what the team
//! runs, so when it is there its alternatives are the patterns (that is what
//! gives `platcheck gate` the pipeline's exact output); the bullet list
//! supplies each pattern's category and is checked against the command.
use super::config::{Gate, Tokens};
use super::doc::Doc;
use super::ere;
use super::section::{self, GateSection};
use super::shell;
use crate::catalog::RuleId;
use crate::emit::Report;
use crate::source::Span;
use regex::Regex;
use std::collections::BTreeSet;

pub const UNLISTED: &str = "not in the bullet list";

#[derive(Debug, Clone)]
pub struct Token {
    pub pattern: String,
    pub category: String,
    pub regex: Regex,
}

#[derive(Debug, Default)]
pub struct Resolved {
    pub tokens: Vec<Token>,
    /// MR003 reports (against `file`, or the config file for inline tokens).
    pub problems: Vec<Report>,
    /// The gate cannot run as written: no patterns, or one grep rejects.
    pub fatal: bool,
    pub section: Option<GateSection>,
}

/// Resolves the patterns of `doc` (workspace file `file`, named `name`).
pub fn resolve(file: usize, name: &str, doc: &Doc, gate: &Gate) -> Resolved {
    let found = section::find(doc);
    let mut r = Resolved::default();
    let at = |offset: usize| Span::new(offset, offset);
    let mr003 = |offset: usize, variant: &'static str| {
        Report::new(RuleId::MR003, file, at(offset)).variant(variant)
    };
    let mut from_doc: Vec<(String, String, usize)> = Vec::new();
    if let Some(s) = &found {
        let heading_at = doc.lines[s.heading_line - 1].start;
        let listed: Vec<(String, String, usize)> = s
            .listed
            .iter()
            .flat_map(|l| {
                shell::alternatives_of_token(&l.pattern)
                    .into_iter()
                    .map(move |p| (p, l.category.clone(), l.offset))
            })
            .collect();
        match &s.command {
            None if listed.is_empty() => r.problems.push(mr003(heading_at, "empty")),
            None => {
                r.problems.push(mr003(heading_at, "no_command"));
                from_doc = listed.clone();
            }
            Some(c) => match &c.parsed {
                None => r
                    .problems
                    .push(mr003(c.offset, "bad_command").var("command", first_line(&c.text))),
                Some(cmd) => {
                    let alts = shell::alternatives(&cmd.grep_pattern);
                    let in_cmd: BTreeSet<&str> = alts.iter().map(String::as_str).collect();
                    let in_list: BTreeSet<&str> = listed.iter().map(|l| l.0.as_str()).collect();
                    for (p, cat, off) in &listed {
                        if !in_cmd.contains(p.as_str()) {
                            r.problems.push(
                                mr003(*off, "bullet_only")
                                    .var("token", p)
                                    .var("category", cat),
                            );
                        }
                    }
                    for a in &alts {
                        if !listed.is_empty() && !in_list.contains(a.as_str()) {
                            r.problems.push(
                                mr003(s.command_offset(doc, a), "command_only").var("token", a),
                            );
                        }
                        let cat = listed
                            .iter()
                            .find(|l| l.0 == *a)
                            .map_or(UNLISTED.to_string(), |l| l.1.clone());
                        from_doc.push((a.clone(), cat, s.command_offset(doc, a)));
                    }
                    check_command_target(&mut r, file, name, doc, gate, s, cmd);
                }
            },
        }
    }
    match &gate.tokens {
        Tokens::Inline(list) => {
            for (p, span) in list {
                push_token(&mut r, p, &format!("mirror_gates `{}`", gate.name), || {
                    Report::new(RuleId::MR003, 0, *span).variant("invalid")
                });
            }
        }
        Tokens::FromDocument => {
            if found.is_none() {
                r.problems.push(mr003(0, "missing").var("gate", &gate.name));
                r.fatal = true;
            }
            for (p, cat, off) in from_doc {
                push_token(&mut r, &p, &cat, || mr003(off, "invalid"));
            }
        }
    }
    if r.tokens.is_empty() {
        r.fatal = true;
    }
    r.section = found;
    r.problems = r.problems.into_iter().map(shorten).collect();
    r
}

/// Longest token, command or detail a message quotes whole.
const MAX_QUOTED: usize = 120;

/// A hostile token (100 KB of parentheses) is quoted by its head, an
/// ellipsis and its size: the report points at it, and every reader of the
/// report (each output format of `check`, `platcheck gate`'s stderr) would
/// otherwise repeat all of it (the detail too, which quotes it).
fn shorten(mut r: Report) -> Report {
    for (_, v) in &mut r.vars {
        if v.len() > MAX_QUOTED {
            *v = crate::catalog::bounded(v, MAX_QUOTED);
        }
    }
    r
}

fn push_token(r: &mut Resolved, pattern: &str, category: &str, report: impl Fn() -> Report) {
    match ere::compile(pattern) {
        Ok(regex) => r.tokens.push(Token {
            pattern: pattern.to_string(),
            category: category.to_string(),
            regex,
        }),
        Err(e) => {
            r.fatal = true;
            r.problems
                .push(report().var("token", pattern).var("detail", e));
        }
    }
}

/// The command must read this file and stop where the boundary is.
fn check_command_target(
    r: &mut Resolved,
    file: usize,
    name: &str,
    doc: &Doc,
    gate: &Gate,
    s: &GateSection,
    cmd: &shell::GateCommand,
) {
    let Some(c) = &s.command else { return };
    if let Some(f) = &cmd.file {
        let base = f.rsplit('/').next().unwrap_or(f);
        if base != name {
            r.problems.push(
                Report::new(RuleId::MR003, file, Span::empty(s.command_offset(doc, f)))
                    .variant("other_file")
                    .var("named", f)
                    .var("file", name),
            );
        }
    }
    let Some(awk) = &cmd.awk_pattern else { return };
    let stops = ere::compile(awk)
        .ok()
        .and_then(|re| doc.lines.iter().position(|l| re.is_match(l.text)))
        .map(|i| i + 1);
    if stops != doc.boundary {
        let line = |n: Option<usize>| n.map_or("no line".to_string(), |n| format!("line {n}"));
        r.problems.push(
            Report::new(RuleId::MR003, file, Span::empty(c.offset))
                .variant("awk_boundary")
                .var("awk", awk)
                .var("awk_line", line(stops))
                .var("boundary", &gate.boundary_text)
                .var("boundary_line", line(doc.boundary)),
        );
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_are_cut_with_their_size() {
        let r = Report::new(RuleId::MR003, 0, Span::empty(0))
            .var("token", "é".repeat(50_000))
            .var("detail", "short");
        let r = shorten(r);
        assert_eq!(r.vars[0].1, format!("{}… [100000 bytes]", "é".repeat(60)));
        assert_eq!(r.vars[1].1, "short");
    }
}
