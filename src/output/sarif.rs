//! `--format sarif`: SARIF 2.1.0 for code scanning. Regions are 1-based with
//! `columnKind` set (our columns count Unicode code points), `results` is
//! always present, and `partialFingerprints` come from what a finding is
//! about, not from its line, so alerts survive edits.
use super::fingerprint;
use crate::catalog::RuleId;
use crate::finding::Severity;
use crate::outcome::Outcome;
use serde_json::{Value, json};

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

pub fn render(outcome: &Outcome) -> String {
    let rules: Vec<Value> = RuleId::ALL.iter().map(|&r| rule_descriptor(r)).collect();
    let prints = fingerprint::all(outcome);
    let results: Vec<Value> = outcome
        .findings
        .iter()
        .zip(prints)
        .map(|(f, fp)| {
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
        })
        .collect();
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
