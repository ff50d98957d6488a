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
/// text alone (used when it cannot be parsed or decoded).
pub fn looks_like_contract(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start_matches('\u{feff}');
        l.strip_prefix("apiVersion:")
            .map(|v| v.trim().trim_matches(['"', '\'']).starts_with("platcheck/"))
            .unwrap_or(false)
    })
}

/// Whether a parsed document is one of ours (its apiVersion says platcheck/…).
fn is_ours(doc: &Node) -> bool {
    doc.get("apiVersion")
        .and_then(Node::as_str)
        .is_some_and(|v| v.starts_with("platcheck/"))
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
    if !docs.iter().any(is_ours) {
        return None;
    }
    let mut contracts = Vec::new();
    for doc in docs.into_iter().filter(is_ours) {
        if let Some(c) = load_document(file, doc, sink) {
            contracts.push(c);
        }
    }
    Some(contracts)
}

fn load_document(file: usize, doc: Node, sink: &mut Sink) -> Option<Contract> {
    let api = doc.get("apiVersion")?;
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
    let mut contract = Contract {
        file,
        kind,
        name,
        root: doc,
    };
    let schema_kind = match kind {
        Kind::Cluster => SchemaKind::Cluster,
        Kind::EventBoundary => SchemaKind::EventBoundary,
    };
    let issues = schema::validate(schema_kind, &contract.root);
    // A value outside its enum is reported once, here: the rules see it as
    // absent rather than reasoning about a word the schema does not know
    // ("product postgres is a cloud-managed engine").
    for issue in issues.iter().filter(|i| i.variant == "enum") {
        if let Some(node) = contract.root.pointer_mut(&issue.pointer) {
            node.value = crate::contracts::yaml::Value::Null;
        }
    }
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
