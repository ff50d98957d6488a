//! Contracts: YAML documents with `apiVersion: platcheck/v1`, kept as
//! positioned trees so every rule can point at the exact key or value.
pub mod cache;
pub mod load;
pub mod schema;
pub mod tree;
pub mod units;
pub mod yaml;

use crate::catalog::RuleId;
use crate::emit::Report;
use crate::finding::ContractRef;
use crate::source::Span;
pub use tree::Tree;
use yaml::Node;

pub const API_VERSION: &str = "platcheck/v1";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Cluster,
    EventBoundary,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "Cluster" => Some(Kind::Cluster),
            "EventBoundary" => Some(Kind::EventBoundary),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Cluster => "Cluster",
            Kind::EventBoundary => "EventBoundary",
        }
    }
    pub const ALL: [Kind; 2] = [Kind::Cluster, Kind::EventBoundary];
}

/// One contract document of the workspace.
#[derive(Debug)]
pub struct Contract {
    /// Index into `Workspace::files`.
    pub file: usize,
    pub kind: Kind,
    pub name: String,
    pub root: Tree,
    /// For a contract from the cache: the nodes at `OUTLINE` (`None` where
    /// absent), read by `get` so that the rules that read every contract
    /// of the repository do not decode every tree.
    pub outline: Option<Box<[Option<Tree>]>>,
}

/// The parts of a contract that rules read from every contract of the
/// repository, not only the judged ones: each Cluster's `migrations` (which
/// cluster owns a migration file), each boundary's `consumers` (EV111) and
/// `schema` (the payload schemas to load). Anything else read from an
/// unjudged contract decodes its tree, so this list is about speed only:
/// an answer never depends on it.
pub const OUTLINE: [&str; 3] = ["/spec/migrations", "/spec/consumers", "/spec/schema"];

impl Contract {
    pub fn new(file: usize, kind: Kind, name: String, root: Node) -> Contract {
        Contract {
            file,
            kind,
            name,
            root: root.into(),
            outline: None,
        }
    }

    pub fn contract_ref(&self) -> ContractRef {
        ContractRef {
            kind: self.kind.as_str().to_string(),
            name: self.name.clone(),
        }
    }

    /// `spec` (an empty null node at the document start when absent).
    pub fn spec(&self) -> Option<&Node> {
        self.root.get("spec")
    }

    /// The node at `pointer`, if present.
    pub fn get(&self, pointer: &str) -> Option<&Node> {
        if let Some(outline) = &self.outline {
            for (prefix, node) in OUTLINE.iter().zip(outline.iter()) {
                if let Some(rest) = pointer.strip_prefix(prefix)
                    && (rest.is_empty() || rest.starts_with('/'))
                {
                    return node.as_deref()?.pointer(rest);
                }
            }
        }
        self.root.pointer(pointer)
    }

    /// A finding about the value at `pointer`. When the key is absent, the
    /// finding points at the deepest mapping that exists (e.g. `ha:`, or
    /// `spec:` when the whole block is absent), and the pointer still names
    /// what is missing.
    pub fn report(&self, rule: RuleId, pointer: &str) -> Report {
        Report::new(rule, self.file, self.span_for(pointer))
            .contract(self.contract_ref())
            .pointer(pointer)
    }

    /// A finding at a node the rule already holds.
    pub fn report_at(&self, rule: RuleId, node: &Node, pointer: &str) -> Report {
        Report::new(rule, self.file, node.label())
            .contract(self.contract_ref())
            .pointer(pointer)
    }

    /// Sharded: `sharding.enabled: true`, a sharding block that does not say
    /// `enabled: false`, or sharding middleware (sharding is its whole job)
    /// unless explicitly disabled. The CL03x rules and the report's
    /// checklist conditions ask the same question.
    pub fn is_sharded(&self) -> bool {
        let present = |p: &str| self.get(p).filter(|n| !n.is_null());
        match present("/spec/sharding/enabled").and_then(Node::as_bool) {
            Some(enabled) => enabled,
            None => {
                present("/spec/sharding").is_some()
                    || present("/spec/engine/class").and_then(Node::as_str)
                        == Some("sharding-middleware")
            }
        }
    }

    /// The span a finding about `pointer` should point at.
    pub fn span_for(&self, pointer: &str) -> Span {
        let mut p = pointer;
        loop {
            if let Some(node) = self.get(p) {
                return node.label();
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return self.root.label(),
            }
        }
    }
}

/// The last segment of a pointer, for messages ("missing `rto`").
pub fn leaf(pointer: &str) -> &str {
    pointer.rsplit('/').next().unwrap_or(pointer)
}
