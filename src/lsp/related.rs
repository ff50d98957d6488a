//! Related information for the places a finding's message names: a rule
//! that attaches secondary spans (PC007) sends them as they are; for the
//! others the message template (data in the rule's file) says where a
//! line of the same file (`{line}`, `{lines}`, `{first}`) or a `file:line`
//! value sits in the message, and that line becomes a related location.
use super::convert::{path_to_uri, range};
use crate::finding::Finding;
use lsp_types as lsp;
use regex::Regex;
use std::path::Path;

/// The variables whose values are places.
const PLACES: &[&str] = &["line", "lines", "first"];

/// The values of `PLACES` variables in `message`, read through the rule's
/// templates (the first template that matches the whole message).
fn place_values(f: &Finding) -> Vec<String> {
    let meta = f.rule.meta();
    let templates = std::iter::once(&meta.message).chain(meta.messages.values());
    for t in templates {
        if !PLACES.iter().any(|p| t.contains(&format!("{{{p}}}"))) {
            continue;
        }
        let Some(re) = template_regex(t) else {
            continue;
        };
        if let Some(c) = re.captures(&f.message) {
            return PLACES
                .iter()
                .filter_map(|p| c.name(p).map(|m| m.as_str().to_string()))
                .collect();
        }
    }
    Vec::new()
}

/// `a {x} b` → `^a (?P<x>.+?) b$` (a variable named twice matches any text
/// the second time; a plural form `{n?one|many}` matches either word).
fn template_regex(t: &str) -> Option<Regex> {
    let var = Regex::new(r"\{([a-z_]+)(?:\?([^}|]*)\|([^}]*))?\}").ok()?;
    let mut out = String::from("(?s)^");
    let mut seen: Vec<String> = Vec::new();
    let mut at = 0;
    for c in var.captures_iter(t) {
        let m = c.get(0)?;
        out.push_str(&regex::escape(&t[at..m.start()]));
        let name = c[1].to_string();
        if let (Some(one), Some(many)) = (c.get(2), c.get(3)) {
            let (one, many) = (regex::escape(one.as_str()), regex::escape(many.as_str()));
            out.push_str(&format!("(?:{one}|{many})"));
        } else if seen.contains(&name) {
            out.push_str(".+?");
        } else {
            out.push_str(&format!("(?P<{name}>.+?)"));
            seen.push(name);
        }
        at = m.end();
    }
    out.push_str(&regex::escape(&t[at..]));
    out.push('$');
    Regex::new(&out).ok()
}

/// The byte range of line `n` (1-based) of `text`, its indentation and
/// line ending left out.
fn line_span(text: &str, n: usize) -> Option<(usize, usize)> {
    let start = if n == 1 {
        0
    } else {
        text.match_indices('\n').nth(n - 2)?.0 + 1
    };
    let line = &text[start..];
    let len = line.find('\n').unwrap_or(line.len());
    let body = line[..len].trim_end();
    let lead = body.len() - body.trim_start().len();
    Some((start + lead, start + body.len()))
}

/// The related locations a finding in `path` (whose text is `text`) names.
/// `resolve` finds another file of the run by its display path.
pub fn derived(
    f: &Finding,
    path: &Path,
    text: &str,
    resolve: &dyn Fn(&str) -> Option<(std::path::PathBuf, String)>,
) -> Vec<lsp::DiagnosticRelatedInformation> {
    let number = Regex::new(r"^\d+$").expect("regex");
    let file_line = Regex::new(r"^(\S+):(\d+)$").expect("regex");
    let mut out = Vec::new();
    let what = format!("named by {} ({})", f.rule, f.rule.meta().name);
    for value in place_values(f) {
        for item in value.split(", ") {
            let item = item.trim();
            let (file, line_text, n) = if number.is_match(item) {
                (path.to_path_buf(), text.to_string(), item.parse().ok())
            } else if let Some(c) = file_line.captures(item) {
                let Some((p, t)) = resolve(&c[1]) else {
                    continue;
                };
                (p, t, c[2].parse().ok())
            } else {
                continue;
            };
            let Some(n) = n else { continue };
            if file == path && n == f.line {
                continue;
            }
            let (Some((s, e)), Some(uri)) = (line_span(&line_text, n), path_to_uri(&file)) else {
                continue;
            };
            out.push(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri, range(&line_text, s, e)),
                message: format!("line {n}, {what}"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_read_back_their_variables() {
        let re =
            template_regex("held until COMMIT while {count} more run (lines {lines})").unwrap();
        let c = re
            .captures("held until COMMIT while 2 more run (lines 4, 7)")
            .unwrap();
        assert_eq!(&c["lines"], "4, 7");
        assert_eq!(&c["count"], "2");
    }

    #[test]
    fn plural_forms_match_either_word() {
        let re = template_regex(
            "while {count} more {count?statement runs|statements run} ({count?line|lines} {lines})",
        )
        .unwrap();
        let one = re.captures("while 1 more statement runs (line 4)").unwrap();
        assert_eq!(&one["lines"], "4");
        let many = re
            .captures("while 3 more statements run (lines 4, 5, 6)")
            .unwrap();
        assert_eq!(&many["lines"], "4, 5, 6");
        assert_eq!(&many["count"], "3");
    }

    #[test]
    fn a_line_without_its_indentation() {
        assert_eq!(line_span("a\n  bc \nd", 2), Some((4, 6)));
        assert_eq!(line_span("a", 3), None);
    }
}
