//! `--format sarif`: SARIF 2.1.0 for code scanning. Regions are 1-based with
//! `columnKind` set (our columns count Unicode code points), `results` is
//! always present, and `partialFingerprints` come from what a finding is
//! about, not from its line, so alerts survive edits.
use super::fingerprint;
use super::stream::{self, Split, Stream};
use crate::catalog::RuleId;
use crate::finding::{Finding, Severity};
use crate::outcome::{Outcome, Summary};
use serde_json::{Value, json};
use std::sync::Mutex;

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "note",
    }
}

fn rule_descriptor(id: RuleId) -> Value {
    let m = id.meta();
    json!({
        "id": id.as_str(),
        "name": m.name,
        "shortDescription": {"text": m.message},
        "fullDescription": {"text": format!("{} Source: {}.", m.help, m.source)},
        "helpUri": id.url(),
        "help": {"text": m.body, "markdown": m.body},
        "defaultConfiguration": {"level": level(m.severity)},
        "properties": {"tags": [m.input, id.as_str()[..2].to_ascii_lowercase()]}
    })
}

fn result(f: &Finding, fp: &str) -> Value {
    let index = RuleId::ALL.iter().position(|r| *r == f.rule).unwrap_or(0);
    let mut message = f.message.clone();
    if let Some(h) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    let mut result = json!({
        "ruleId": f.rule.as_str(),
        "ruleIndex": index,
        "level": level(f.severity),
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri(&f.file), "uriBaseId": "%SRCROOT%"},
                "region": {
                    "startLine": f.line.max(1),
                    "startColumn": f.column.max(1),
                    "endLine": f.end_line.max(f.line).max(1),
                    "endColumn": if f.end_line == f.line { f.end_column.max(f.column + 1) } else { f.end_column.max(1) }
                }
            }
        }],
        "partialFingerprints": {"platcheckFingerprint/v1": fp}
    });
    let mut props = serde_json::Map::new();
    if let Some(c) = &f.contract {
        props.insert("contract".into(), json!({"kind": c.kind, "name": c.name}));
    }
    if let Some(p) = &f.pointer {
        props.insert("pointer".into(), json!(p));
    }
    if let Some(sql) = &f.sql {
        props.insert("statement".into(), json!(sql.statement));
        props.insert("locks".into(), json!(sql.locks));
        props.insert("rewrite".into(), json!(sql.rewrite));
        props.insert("scan".into(), json!(sql.scan));
    }
    if !props.is_empty() {
        result["properties"] = Value::Object(props);
    }
    result
}

/// The document around `results`, which `Printer` writes file by file:
/// `results` is `stream::SENTINEL` (the tests pass the results themselves).
fn doc(outcome: &Outcome, results: Value) -> String {
    let rules: Vec<Value> = RuleId::ALL.iter().map(|&r| rule_descriptor(r)).collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "platcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules
            }},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the directory platcheck ran in"}}},
            "invocations": [{"executionSuccessful": true}],
            "properties": {"today": outcome.today.to_string()},
            "results": results
        }]
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// The document around the results depends only on the run's `today`, and
/// serialising its 186 rule descriptors (≈ 670 KB) is most of a small
/// run's SARIF: a process that prints several outcomes (the printer fuzz
/// target, the property tests) builds it once per `today`.
fn split(outcome: &Outcome) -> Split {
    static LAST: Mutex<Option<(String, Split)>> = Mutex::new(None);
    let today = outcome.today.to_string();
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((t, s)) = last.as_ref()
        && *t == today
    {
        return s.clone();
    }
    let s = Split::new(&doc(outcome, json!(stream::SENTINEL)), "results");
    *last = Some((today, s.clone()));
    s
}

pub struct Printer {
    split: Split,
    /// Of every finding, in order (an occurrence count runs over the run).
    prints: Vec<String>,
}

impl Printer {
    pub fn new(outcome: &Outcome) -> Printer {
        Printer {
            split: split(outcome),
            prints: fingerprint::all(outcome),
        }
    }
}

impl Stream for Printer {
    fn head(&self, _: &Outcome, out: &mut String) {
        out.push_str(&self.split.head);
    }
    fn file(
        &self,
        o: &Outcome,
        fs: &[Finding],
        at: Option<usize>,
        written: usize,
        out: &mut String,
    ) {
        // Stand-ins for findings the printer failed on get their own.
        let own;
        let prints = match at {
            Some(at) => &self.prints[at..at + fs.len()],
            None => {
                own = fingerprint::of(fs, &o.files, &o.root);
                &own[..]
            }
        };
        for (i, (f, fp)) in fs.iter().zip(prints).enumerate() {
            self.split.before_item(written + i, out);
            let item = serde_json::to_string_pretty(&result(f, fp)).unwrap_or_default();
            stream::push_indented(out, &item, &self.split.indent);
        }
    }
    fn in_blocks(&self, _: &[Finding]) -> bool {
        // Each result depends only on its finding, its index and its
        // fingerprint (`prints[at]`).
        true
    }
    fn tail(&self, _: &Outcome, _: &Summary, written: usize, out: &mut String) {
        self.split.finish(written, out);
    }
}

pub fn render(outcome: &Outcome) -> String {
    stream::to_string(&Printer::new(outcome), outcome)
}

/// A relative URI reference for a file path (RFC 3986): every byte but the
/// unreserved characters and `/` percent-encoded, so spaces, `%`, `#`, `\\`
/// and non-ASCII names survive the round trip through a SARIF viewer.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_is_byte_identical_to_the_whole_document() {
        for o in stream::tests::outcomes() {
            let prints = fingerprint::all(&o);
            let results: Vec<Value> = o
                .findings
                .iter()
                .zip(&prints)
                .map(|(f, p)| result(f, p))
                .collect();
            let want = doc(&o, Value::Array(results));
            assert_eq!(render(&o), want);
            assert_eq!(stream::tests::written(&Printer::new(&o), &o), want);
        }
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(super::uri("docs/a b%#?.md"), "docs/a%20b%25%23%3F.md");
        assert_eq!(super::uri("m/caf\u{e9}\\x.sql"), "m/caf%C3%A9%5Cx.sql");
        assert_eq!(
            super::uri("contracts/orders-db.yaml"),
            "contracts/orders-db.yaml"
        );
    }
}
