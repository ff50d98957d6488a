//! Turning a YAML file into contracts: the checks every contract gets before
//! any rule sees it (PC002 syntax, PC006 kind/apiVersion, PC003/PC004/PC005
//! schema and units).
use super::schema::{self, SchemaKind};
use super::yaml::{self, Node};
use super::{API_VERSION, Contract, Kind};
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::source::SourceFile;

/// Whether a YAML text claims to hold platcheck contracts, judged from the
/// text alone (used when it cannot be parsed): an apiVersion key in any
/// spelling, quoting, indentation or flow style whose value names
/// platcheck, or a contract `kind` in a text with no apiVersion at all.
pub fn looks_like_contract(text: &str) -> bool {
    use std::sync::LazyLock;
    static API: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"(?i)["']?\bapi[_-]?version["']?\s*:\s*["']?[^\s"',}]*platcheck"#)
            .expect("valid regex")
    });
    static ANY_API: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"(?i)\bapi[_-]?version["']?\s*:"#).expect("valid regex")
    });
    static KIND: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"\bkind["']?\s*:\s*["']?(Cluster|EventBoundary)\b"#)
            .expect("valid regex")
    });
    API.is_match(text) || (KIND.is_match(text) && !ANY_API.is_match(text))
}

/// Whether a parsed document is one of ours (its apiVersion says platcheck/…).
fn is_ours(doc: &Node) -> bool {
    doc.get("apiVersion")
        .and_then(Node::as_str)
        .is_some_and(|v| v.starts_with("platcheck/"))
}

/// The key that holds a document's apiVersion, in any case or separator
/// (`apiversion`, `api_version`): a near miss must not hide a contract.
fn api_entry(doc: &Node) -> Option<(&super::yaml::Key, &Node)> {
    doc.entries().iter().map(|(k, v)| (k, v)).find(|(k, _)| {
        let k: String = k.name.chars().filter(|c| !matches!(c, '_' | '-')).collect();
        k.eq_ignore_ascii_case("apiversion")
    })
}

/// Whether a document says it is a contract without being a well-formed
/// one: an apiVersion that names platcheck (`platcheck.io/v1`,
/// `Platcheck/v1`), under a misspelt key, or a contract `kind` with no
/// apiVersion (or a bare `v1`). Another tool's `kind: Cluster` (CloudNativePG,
/// Cluster API) carries its own group in apiVersion and is left alone.
fn claims_to_be_ours(doc: &Node) -> bool {
    let api = api_entry(doc);
    let names_platcheck = api
        .and_then(|(_, v)| v.scalar_text())
        .is_some_and(|v| v.to_ascii_lowercase().contains("platcheck"));
    let contract_kind = doc
        .get("kind")
        .and_then(Node::as_str)
        .is_some_and(|k| Kind::parse(k).is_some());
    let groupless = match api {
        None => true,
        Some((_, v)) => v.scalar_text().is_none_or(|v| !v.contains('/')),
    };
    names_platcheck || (contract_kind && groupless)
}

/// Loads the contracts of one YAML file. Returns `None` when the file holds
/// no platcheck document (other YAML is left alone silently).
pub fn load_file(file: usize, src: &SourceFile, sink: &mut Sink) -> Option<Vec<Contract>> {
    let docs = match yaml::parse_documents(src) {
        Ok(docs) => docs,
        Err(e) => {
            if !looks_like_contract(&src.text) {
                return None;
            }
            sink.push(Report::new(RuleId::PC002, file, e.span).var("detail", e.message));
            return Some(Vec::new());
        }
    };
    let ours = |d: &Node| is_ours(d) || claims_to_be_ours(d);
    if !docs.iter().any(ours) {
        return None;
    }
    let mut contracts = Vec::new();
    for doc in docs.into_iter().filter(ours) {
        if let Some(c) = load_document(file, doc, sink) {
            contracts.push(c);
        }
    }
    Some(contracts)
}

fn load_document(file: usize, doc: Node, sink: &mut Sink) -> Option<Contract> {
    let Some((key, api)) = api_entry(&doc) else {
        sink.push(
            Report::new(RuleId::PC006, file, doc.label())
                .pointer("/apiVersion")
                .variant("api_version_missing"),
        );
        return None;
    };
    if key.name != "apiVersion" {
        sink.push(
            Report::new(RuleId::PC006, file, key.span)
                .pointer(format!("/{}", key.name))
                .variant("api_version_key")
                .var("value", &key.name),
        );
        return None;
    }
    if api.as_str() != Some(API_VERSION) {
        sink.push(
            Report::new(RuleId::PC006, file, api.span)
                .pointer("/apiVersion")
                .variant("api_version")
                .var("value", api.scalar_text().unwrap_or_default()),
        );
        return None;
    }
    let kind = match doc.get("kind") {
        Some(k) => match k.as_str().and_then(Kind::parse) {
            Some(kind) => kind,
            None => {
                sink.push(
                    Report::new(RuleId::PC006, file, k.span)
                        .pointer("/kind")
                        .variant("kind")
                        .var(
                            "value",
                            k.scalar_text().unwrap_or_else(|| k.type_name().into()),
                        ),
                );
                return None;
            }
        },
        None => {
            sink.push(
                Report::new(RuleId::PC006, file, doc.label())
                    .pointer("/kind")
                    .variant("kind_missing"),
            );
            return None;
        }
    };
    let name = doc
        .pointer("/metadata/name")
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    let mut doc = doc;
    let schema_kind = match kind {
        Kind::Cluster => SchemaKind::Cluster,
        Kind::EventBoundary => SchemaKind::EventBoundary,
    };
    let issues = schema::validate(schema_kind, &doc);
    // A value outside its enum is reported once, here: the rules see it as
    // absent rather than reasoning about a word the schema does not know
    // ("product postgres is a cloud-managed engine").
    for issue in issues.iter().filter(|i| i.variant == "enum") {
        if let Some(node) = doc.pointer_mut(&issue.pointer) {
            node.value = crate::contracts::yaml::Value::Null;
        }
    }
    let contract = Contract::new(file, kind, name, doc);
    for issue in issues {
        let mut r = Report::new(issue.rule, file, issue.span)
            .contract(contract.contract_ref())
            .pointer(issue.pointer);
        if issue.variant != "default" {
            r = r.variant(issue.variant);
        }
        r.vars = issue.vars;
        sink.push(r);
    }
    Some(contract)
}
