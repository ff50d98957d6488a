//! From platcheck's data to the protocol's: file URIs, diagnostics from
//! findings, workspace edits from fixes. Positions (the protocol counts
//! UTF-16 code units from 0; findings count bytes) go through `lines`.
use super::lines::{Files, LineIndex};
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

/// A finding as the editor shows it: the rule id as `code`, linked to the
/// rule's doc of this version, the help after the message, the secondary
/// places its rule attached (`files` holds their files' text) as related
/// information.
pub fn diagnostic_with(f: &Finding, lines: &LineIndex, files: &Files) -> lsp::Diagnostic {
    let mut d = diagnostic(f, lines);
    let related: Vec<lsp::DiagnosticRelatedInformation> = f
        .related
        .iter()
        .filter_map(|r| {
            let at = files.get(&r.path)?;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(path_to_uri(&r.path)?, at.range(r.start, r.end)),
                message: r.message.clone(),
            })
        })
        .collect();
    if !related.is_empty() {
        d.related_information = Some(related);
    }
    d
}

pub fn diagnostic(f: &Finding, lines: &LineIndex) -> lsp::Diagnostic {
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
        range: lines.range(f.start, f.end),
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
    let files = Files::of(outcome);
    let by_display: BTreeMap<&str, &Path> = outcome
        .files
        .iter()
        .map(|s| (s.display.as_str(), s.path.as_path()))
        .collect();
    let mut out: BTreeMap<PathBuf, Vec<lsp::Diagnostic>> = BTreeMap::new();
    for f in &outcome.findings {
        let Some(path) = by_display.get(f.file.as_str()) else {
            continue;
        };
        let Some(lines) = files.get(path) else {
            continue;
        };
        let d = diagnostic_with(f, lines, &files);
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
    files: &Files,
) -> Option<lsp::CodeAction> {
    let mut ops = Vec::new();
    let mut by_file: BTreeMap<&Path, Vec<&crate::finding::Edit>> = BTreeMap::new();
    for e in &fix.edits {
        by_file.entry(e.path.as_path()).or_default().push(e);
    }
    for (path, edits) in by_file {
        let uri = path_to_uri(path)?;
        let created = edits.iter().any(|e| e.create);
        let lines = if created {
            None
        } else {
            Some(files.get(path)?)
        };
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
                let r = lines.map_or_else(lsp::Range::default, |l| l.range(e.start, e.end));
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
    fn uris_round_trip_spaces_and_unicode() {
        let p = Path::new("/tmp/a b/é.sql");
        let u = path_to_uri(p).unwrap();
        assert_eq!(u.as_str(), "file:///tmp/a%20b/%C3%A9.sql");
        assert_eq!(uri_to_path(&u).unwrap(), p);
    }
}
