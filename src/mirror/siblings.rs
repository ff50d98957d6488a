//! Sibling drift: the mirrored regions of two siblings compared section by
//! section (H1–H3 headings outside code fences). The document header before
//! the first H2 is left out on purpose: it names its own stack and its
//! sibling, so it always differs. A section's lines are compared after the
//! document's own stack name (from its boundary heading) is replaced by
//! `<stack>`, so "the Python file" and "the Go file" are the same sentence.
use super::Gated;
use super::config::{Gate, Siblings};
use super::doc::{Doc, code_spans};
use crate::catalog::RuleId;
use crate::emit::Report;
use crate::source::Span;
use regex::Regex;
use similar::TextDiff;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Section {
    /// `H2` or `H2 › H3`.
    pub key: String,
    pub title: String,
    pub line: usize,
    /// The line of the body's first line (leading blank lines are trimmed).
    pub body_line: usize,
    pub body: String,
}

/// The mirrored sections of a document (its header excluded).
pub fn sections(doc: &Doc) -> Vec<Section> {
    let end = doc.boundary.unwrap_or(0);
    let starts: Vec<_> = doc
        .headings
        .iter()
        .filter(|h| h.line < end && h.level <= 3)
        .collect();
    let first_h2 = starts.iter().position(|h| h.level == 2);
    let mut out = Vec::new();
    let mut parent = String::new();
    // Compiled once per stack name for the process: once per line made a
    // 1.4 MB pair take minutes, and a repository has a few stacks for its
    // hundreds of documents.
    let stack = doc
        .stack
        .as_deref()
        .filter(|s| !s.is_empty())
        .and_then(super::whole_word);
    for (i, h) in starts.iter().enumerate() {
        if first_h2.is_none_or(|f| i < f) {
            continue;
        }
        if h.level <= 2 {
            parent = h.text.clone();
        }
        let key = if h.level == 3 && !parent.is_empty() {
            format!("{parent} › {}", h.text)
        } else {
            h.text.clone()
        };
        let stop = starts.get(i + 1).map_or(end, |n| n.line);
        let lines: Vec<String> = (h.line + 1..stop)
            .map(|n| normalize(doc.line(n), stack.as_ref()))
            .collect();
        let blank = lines.iter().take_while(|l| l.is_empty()).count();
        let body = lines.join("\n").trim_matches('\n').to_string() + "\n";
        out.push(Section {
            key,
            title: h.text.clone(),
            line: h.line,
            body_line: h.line + 1 + blank,
            body,
        });
    }
    out
}

/// `stack`: the document's stack name as a whole-word pattern (`None`
/// when it has none, or when the name does not compile: the line is kept
/// as written, as before the pattern was compiled once per document).
fn normalize(line: &str, stack: Option<&Regex>) -> String {
    let line = line.trim_end();
    match stack {
        Some(re) => re.replace_all(line, "<stack>").to_string(),
        None => line.to_string(),
    }
}

/// The other side of a pair: a gated document of the workspace, or a file
/// read from disk because a Sibling sync header names it.
pub enum Other {
    Workspace(usize),
    External { display: String, text: String },
}

#[derive(Debug)]
pub struct Outcome {
    pub drift: Vec<Report>,
    pub missing: Vec<Report>,
}

/// Finds every sibling pair and compares it.
pub fn analyze(
    gated: &[Gated],
    files: &[crate::source::SourceFile],
    cwd_root: &Path,
    scope: &crate::read::Scope,
) -> Outcome {
    let mut out = Outcome {
        drift: Vec::new(),
        missing: Vec::new(),
    };
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let paths: Vec<PathBuf> = gated.iter().map(|g| canon(&files[g.file].path)).collect();
    let mut seen: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut pairs: Vec<(usize, Other)> = Vec::new();
    for (i, g) in gated.iter().enumerate() {
        // Under `same-file-name` the header pairs nothing, but a file it
        // names that exists nowhere is still a broken promise (MR005).
        let pair_by_header = matches!(g.gate.siblings, Siblings::Any | Siblings::Header);
        if g.gate.siblings != Siblings::None
            && let Some(p) = g.doc.header_para("Sibling sync.")
        {
            for (named, at) in code_spans(&p.text) {
                if !named.ends_with(".md") {
                    continue;
                }
                let offset = p.file_offset(at);
                match locate(&files[g.file].path, &named, scope) {
                    None => out.missing.push(
                        Report::new(
                            RuleId::MR005,
                            g.file,
                            Span::new(offset, offset + named.len()),
                        )
                        .variant("missing_file")
                        .var("sibling", &named),
                    ),
                    Some(_) if !pair_by_header => {}
                    Some(found) => {
                        let found = canon(&found);
                        if let Some(j) = paths.iter().position(|p| *p == found) {
                            if j != i && seen.insert((i.min(j), i.max(j))) {
                                pairs.push((i.min(j), Other::Workspace(i.max(j))));
                            }
                        } else if let Ok(text) = crate::read::read_text(
                            &found,
                            crate::settings::DEFAULT_MAX_FILE_SIZE,
                            scope,
                        ) {
                            let display = crate::source::display_path(&found, cwd_root);
                            pairs.push((i, Other::External { display, text }));
                        }
                    }
                }
            }
        }
        if matches!(g.gate.siblings, Siblings::Any | Siblings::SameFileName) {
            for (j, h) in gated.iter().enumerate().skip(i + 1) {
                let same_name = h.name == g.name;
                let other_dir = paths[i].parent() != paths[j].parent();
                if same_name && other_dir && seen.insert((i, j)) {
                    pairs.push((i, Other::Workspace(j)));
                }
            }
        }
    }
    for (a, b) in pairs {
        let ga = &gated[a];
        match b {
            Other::Workspace(j) => {
                let gb = &gated[j];
                let bd = files[gb.file].display.clone();
                compare(&mut out, ga, files, &gb.doc, &bd, Some(gb.file));
            }
            Other::External { display, text } => {
                let doc = Doc::parse(&text, &ga.gate.boundary);
                compare(&mut out, ga, files, &doc, &display, None);
            }
        }
    }
    out
}

/// Resolves a path named in a Sibling sync header: relative to the
/// document's folder or to any folder above it (headers name siblings from
/// the root of the document collection).
/// The named sibling, searched from the document's directory upwards, but
/// never above the repository: a file outside it is not ours to read.
fn locate(doc_path: &Path, named: &str, scope: &crate::read::Scope) -> Option<PathBuf> {
    let dir = doc_path.parent()?;
    dir.ancestors()
        .take_while(|d| scope.lexically_inside(d))
        .map(|d| d.join(named))
        .find(|p| p.is_file() && scope.check(p).is_ok())
}

fn compare(
    out: &mut Outcome,
    a: &Gated,
    files: &[crate::source::SourceFile],
    b: &Doc,
    b_display: &str,
    b_file: Option<usize>,
) {
    if a.doc.boundary.is_none() || b.boundary.is_none() {
        return; // MR002 already says why no region exists.
    }
    let a_display = &files[a.file].display;
    let sa = sections(&a.doc);
    let sb = sections(b);
    let by_key_b: HashMap<&str, &Section> = sb.iter().rev().map(|s| (s.key.as_str(), s)).collect();
    let keys_a: HashSet<&str> = sa.iter().map(|s| s.key.as_str()).collect();
    let at = |doc: &Doc, line: usize| {
        let s = doc.lines[line - 1].start;
        Span::new(s, s + doc.line(line).trim_end().len())
    };
    for s in &sa {
        match by_key_b.get(s.key.as_str()).copied() {
            Some(o) if o.body != s.body => {
                if allowed(a.gate, s) {
                    continue;
                }
                if let Some(r) = too_large(a, s, o, b_display) {
                    out.drift.push(r);
                    continue;
                }
                let diff = TextDiff::from_lines(&s.body, &o.body)
                    .unified_diff()
                    .context_radius(1)
                    .header(a_display, b_display)
                    .to_string();
                let changed = diff.lines().filter(|l| l.starts_with("@@")).count();
                out.drift.push(
                    Report::new(RuleId::MR004, a.file, at(&a.doc, s.line))
                        .var("section", &s.key)
                        .var("sibling", b_display)
                        .var("hunks", changed)
                        .help(format!(
                            "make the section identical in both files (or list it under allowed_divergence with a reason):\n{}",
                            diff.trim_end()
                        )),
                );
            }
            Some(_) => {}
            None if !allowed(a.gate, s) => out.missing.push(
                Report::new(RuleId::MR005, a.file, at(&a.doc, s.line))
                    .variant("only_here")
                    .var("section", &s.key)
                    .var("sibling", b_display),
            ),
            None => {}
        }
    }
    for s in sb.iter().filter(|s| !keys_a.contains(s.key.as_str())) {
        if allowed(a.gate, s) {
            continue;
        }
        let (file, span) = match b_file {
            Some(f) => (f, at(b, s.line)),
            None => (a.file, at(&a.doc, a.doc.boundary.unwrap_or(1))),
        };
        let r = Report::new(RuleId::MR005, file, span).var("section", &s.key);
        out.missing.push(match b_file {
            Some(_) => r.variant("only_here").var("sibling", a_display),
            None => r.variant("only_there").var("sibling", b_display),
        });
    }
}

/// Myers costs (N+M)·D: past this many differing lines (after the common
/// head and tail) the diff is not computed and MR004 says where the
/// difference starts and how large it is.
pub const MAX_DIFF_LINES: usize = 4000;

fn too_large(a: &Gated, s: &Section, o: &Section, b_display: &str) -> Option<Report> {
    let la: Vec<&str> = s.body.lines().collect();
    let lb: Vec<&str> = o.body.lines().collect();
    let head = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    let tail = la[head..]
        .iter()
        .rev()
        .zip(lb[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (da, db) = (la.len() - head - tail, lb.len() - head - tail);
    if da + db <= MAX_DIFF_LINES {
        return None;
    }
    let first = (s.body_line + head).min(a.doc.lines.len().max(1));
    let start = a.doc.lines[first - 1].start;
    let span = Span::new(start, start + a.doc.line(first).trim_end().len());
    Some(
        Report::new(RuleId::MR004, a.file, span)
            .variant("too_large")
            .var("section", &s.key)
            .var("sibling", b_display)
            .var("lines_a", da)
            .var("lines_b", db)
            .var("cap", MAX_DIFF_LINES),
    )
}

fn allowed(gate: &Gate, s: &Section) -> bool {
    gate.allows(&s.title, &s.key).is_some()
}
