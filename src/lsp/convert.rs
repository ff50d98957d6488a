//! From platcheck's data to the protocol's: file URIs, UTF-16 positions
//! (the protocol counts UTF-16 code units from 0; findings count bytes),
//! diagnostics from findings, workspace edits from fixes.
use crate::catalog::FixSafety;
use crate::finding::{Finding, Fix};
use crate::outcome::Outcome;
use lsp_types as lsp;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// `file:///a/b c` for `/a/b c`: every byte outside the unreserved set and
/// `/` is percent-encoded.
pub fn path_to_uri(path: &Path) -> Option<lsp::Uri> {
    let s = path.to_str()?;
    let mut out = String::from("file://");
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    lsp::Uri::from_str(&out).ok()
}

pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() + 1 {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// The protocol position of a byte offset.
pub fn position(text: &str, offset: usize) -> lsp::Position {
    let offset = floor_boundary(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    lsp::Position::new(line as u32, character as u32)
}

/// The byte offset of a protocol position (clamped to its line).
pub fn offset(text: &str, pos: lsp::Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub(crate) fn range(text: &str, start: usize, end: usize) -> lsp::Range {
    lsp::Range::new(position(text, start), position(text, end))
}

/// A finding as the editor shows it: the rule id as `code`, linked to the
/// rule's doc of this version, the help after the message, its secondary
/// places (`texts` gives their files' text) as related information.
pub fn diagnostic_with(
    f: &Finding,
    text: &str,
    texts: &dyn Fn(&Path) -> Option<String>,
) -> lsp::Diagnostic {
    let mut d = diagnostic(f, text);
    let related: Vec<lsp::DiagnosticRelatedInformation> = f
        .related
        .iter()
        .filter_map(|r| {
            let t = texts(&r.path)?;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(path_to_uri(&r.path)?, range(&t, r.start, r.end)),
                message: r.message.clone(),
            })
        })
        .collect();
    if !related.is_empty() {
        d.related_information = Some(related);
    }
    d
}

pub fn diagnostic(f: &Finding, text: &str) -> lsp::Diagnostic {
    let severity = match f.severity {
        crate::catalog::Severity::Error => lsp::DiagnosticSeverity::ERROR,
        crate::catalog::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        crate::catalog::Severity::Notice => lsp::DiagnosticSeverity::INFORMATION,
    };
    let message = match &f.help {
        Some(h) => format!("{}\nhelp: {h}", f.message),
        None => f.message.clone(),
    };
    lsp::Diagnostic {
        range: range(text, f.start, f.end),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(f.rule.to_string())),
        code_description: lsp::Uri::from_str(&f.rule.url())
            .ok()
            .map(|href| lsp::CodeDescription { href }),
        source: Some("platcheck".into()),
        message,
        related_information: None,
        tags: None,
        data: None,
    }
}

/// Every file's diagnostics, keyed by path (files without findings are
/// absent: the caller clears what it published before).
pub fn diagnostics(outcome: &Outcome) -> BTreeMap<PathBuf, Vec<lsp::Diagnostic>> {
    let by_display: BTreeMap<&str, (&Path, &str)> = outcome
        .files
        .iter()
        .map(|s| (s.display.as_str(), (s.path.as_path(), &*s.text)))
        .collect();
    let mut out: BTreeMap<PathBuf, Vec<lsp::Diagnostic>> = BTreeMap::new();
    for f in &outcome.findings {
        let Some((path, text)) = by_display.get(f.file.as_str()) else {
            continue;
        };
        let texts = |p: &Path| {
            outcome
                .files
                .iter()
                .find(|s| s.path == p)
                .map(|s| s.text.to_string())
        };
        let mut d = diagnostic_with(f, text, &texts);
        if d.related_information.is_none() {
            let resolve = |display: &str| {
                let (p, t) = by_display.get(display)?;
                Some((p.to_path_buf(), t.to_string()))
            };
            let named = super::related::derived(f, path, text, &resolve);
            if !named.is_empty() {
                d.related_information = Some(named);
            }
        }
        out.entry(path.to_path_buf()).or_default().push(d);
    }
    out
}

/// A fix as a quick fix: edits of existing files against the text the run
/// read, new files created first. `None` when a path has no URI.
pub fn code_action(
    f: &Finding,
    fix: &Fix,
    diag: lsp::Diagnostic,
    texts: &dyn Fn(&Path) -> Option<String>,
) -> Option<lsp::CodeAction> {
    let mut ops = Vec::new();
    let mut by_file: BTreeMap<&Path, Vec<&crate::finding::Edit>> = BTreeMap::new();
    for e in &fix.edits {
        by_file.entry(e.path.as_path()).or_default().push(e);
    }
    for (path, edits) in by_file {
        let uri = path_to_uri(path)?;
        let created = edits.iter().any(|e| e.create);
        let text = if created { String::new() } else { texts(path)? };
        if created {
            ops.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Create(
                lsp::CreateFile {
                    uri: uri.clone(),
                    options: Some(lsp::CreateFileOptions {
                        overwrite: Some(false),
                        ignore_if_exists: Some(false),
                    }),
                    annotation_id: None,
                },
            )));
        }
        let mut text_edits: Vec<lsp::OneOf<lsp::TextEdit, lsp::AnnotatedTextEdit>> = edits
            .iter()
            .map(|e| {
                let r = if created {
                    lsp::Range::default()
                } else {
                    range(&text, e.start, e.end)
                };
                lsp::OneOf::Left(lsp::TextEdit::new(r, e.text.clone()))
            })
            .collect();
        text_edits.dedup();
        ops.push(lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
            text_document: lsp::OptionalVersionedTextDocumentIdentifier { uri, version: None },
            edits: text_edits,
        }));
    }
    let safety = fix.effective(f.rule);
    let title = match safety {
        FixSafety::Unsafe => format!("{} ({}, unsafe: read it)", fix.title, f.rule),
        _ => format!("{} ({})", fix.title, f.rule),
    };
    Some(lsp::CodeAction {
        title,
        kind: Some(lsp::CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diag]),
        edit: Some(lsp::WorkspaceEdit {
            changes: None,
            document_changes: Some(lsp::DocumentChanges::Operations(ops)),
            change_annotations: None,
        }),
        command: None,
        is_preferred: Some(safety == FixSafety::Safe),
        disabled: None,
        data: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\né😀x\n";
        let p = position(text, text.find('x').unwrap());
        assert_eq!((p.line, p.character), (1, 3));
        assert_eq!(offset(text, p), text.find('x').unwrap());
    }

    #[test]
    fn uris_round_trip_spaces_and_unicode() {
        let p = Path::new("/tmp/a b/é.sql");
        let u = path_to_uri(p).unwrap();
        assert_eq!(u.as_str(), "file:///tmp/a%20b/%C3%A9.sql");
        assert_eq!(uri_to_path(&u).unwrap(), p);
    }
}
