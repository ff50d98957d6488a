//! The launch checklists as data (`rules/checklists/*.yaml`, embedded). Each
//! item declares its evidence: the contract fields that must be present
//! (and which values satisfy them), the rules that must not fire, and the
//! inputs a run must be given to check it. Nothing about an item is decided
//! in code except the named conditions of `applies_when` and `needs`.
use crate::catalog::RuleId;
use crate::contracts::Kind;
use serde::Deserialize;
use std::sync::OnceLock;

const SOURCES: [(&str, &str); 2] = [
    (
        "rules/checklists/data-platform.yaml",
        include_str!("../../rules/checklists/data-platform.yaml"),
    ),
    (
        "rules/checklists/event-boundary.yaml",
        include_str!("../../rules/checklists/event-boundary.yaml"),
    ),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checklist {
    /// `data-platform`, `event-boundary` (the file stem).
    pub id: String,
    pub title: String,
    /// The contract kind it applies to (`Cluster`, `EventBoundary`).
    pub kind: String,
    /// The reference section this checklist restates.
    pub source: String,
    pub items: Vec<Item>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub number: u32,
    pub title: String,
    /// The item in our own words; `{/spec/...}` is replaced by the
    /// contract's value, so cadences read as the contract declares them.
    pub text: String,
    /// The reference sections behind it.
    pub source: String,
    /// The fields that must be present (with the values that satisfy them).
    #[serde(default)]
    pub evidence: Vec<FieldSpec>,
    /// The rules that must not fire: ids, or a family prefix (`MG*`).
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// Inputs the run must be given (see `Input`).
    #[serde(default)]
    pub needs: Vec<Need>,
    /// A condition name (see `conditions.rs`); the item is not applicable
    /// when it does not hold.
    #[serde(default)]
    pub applies_when: Option<String>,
    /// Why it is not applicable; `{why}` is filled from the contract.
    #[serde(default)]
    pub not_applicable: Option<String>,
    #[serde(skip)]
    ids: OnceLock<Vec<RuleId>>,
    #[serde(skip)]
    parsed: OnceLock<Vec<Field>>,
}

/// An evidence field: a bare pointer, or a pointer with conditions.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum FieldSpec {
    Pointer(String),
    Full(Box<Field>),
}

impl FieldSpec {
    pub fn field(&self) -> Field {
        match self {
            FieldSpec::Pointer(p) => Field {
                field: p.clone(),
                ..Field::default()
            },
            FieldSpec::Full(f) => (**f).clone(),
        }
    }
}

/// One field an item needs. `field` is a JSON pointer where `*` stands for
/// every element of a sequence or mapping (each must have the rest).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub field: String,
    /// Required only when this holds (pointers without a leading `/` are
    /// relative to the element of the last `*`).
    #[serde(default)]
    pub when: Option<When>,
    /// The value must be one of these.
    #[serde(default, rename = "in")]
    pub one_of: Option<Vec<Scalar>>,
    /// A number at least this.
    #[serde(default)]
    pub min: Option<f64>,
    /// A duration no longer than this (a calendar month counts as its
    /// average length, 30.44 days).
    #[serde(default)]
    pub at_most: Option<String>,
    /// A date no older than the duration at this pointer (relative to the
    /// field's own mapping when it has no leading `/`).
    #[serde(default)]
    pub fresh_within: Option<String>,
    /// What the source asks, shown when the field is absent or falls short.
    #[serde(default)]
    pub why: Option<String>,
}

/// A YAML scalar in the data (`true`, `3`, `all`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Int(i) => write!(f, "{i}"),
            Scalar::Str(s) => f.write_str(s),
        }
    }
}

/// One condition, or several that must all hold.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum When {
    All(Vec<Cond>),
    One(Cond),
}

impl When {
    pub fn conds(&self) -> &[Cond] {
        match self {
            When::All(c) => c,
            When::One(c) => std::slice::from_ref(c),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Cond {
    /// One of these holds.
    Any { any: Vec<Cond> },
    /// A test on the value(s) at `field` (`*` = any element matches).
    Field(FieldCond),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldCond {
    pub field: String,
    #[serde(default, rename = "in")]
    pub one_of: Option<Vec<Scalar>>,
    #[serde(default)]
    pub not_in: Option<Vec<Scalar>>,
    #[serde(default)]
    pub present: Option<bool>,
    #[serde(default)]
    pub min: Option<f64>,
}

/// A rule that must not fire: `CL001`, a family prefix `MG*`, or a rule
/// whose findings on the other kind of contract concern this one through
/// a field naming it (`{id: XR001, via: [/spec/producer/outbox/cluster]}`),
/// or a rule that serves several items, each deciding only the findings at
/// its own fields (`{id: EV140, at: [/spec/consumers/*/dlq/replay_tool]}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RuleSpec {
    Id(String),
    Via { id: String, via: Vec<String> },
    At { id: String, at: Vec<String> },
}

impl RuleSpec {
    pub fn pattern(&self) -> &str {
        match self {
            RuleSpec::Id(s) | RuleSpec::Via { id: s, .. } | RuleSpec::At { id: s, .. } => s,
        }
    }
    /// The rules it names (a prefix expands to its family, in id order).
    pub fn expand(&self) -> Vec<RuleId> {
        let p = self.pattern();
        match p.strip_suffix('*') {
            Some(prefix) => RuleId::ALL
                .iter()
                .copied()
                .filter(|r| r.as_str().starts_with(prefix))
                .collect(),
            None => RuleId::parse(p).into_iter().collect(),
        }
    }
    pub fn via(&self) -> &[String] {
        match self {
            RuleSpec::Via { via, .. } => via,
            _ => &[],
        }
    }
    /// The field patterns whose findings this item takes (empty: all).
    pub fn at(&self) -> &[String] {
        match self {
            RuleSpec::At { at, .. } => at,
            _ => &[],
        }
    }
    /// Named explicitly (not through a family prefix).
    pub fn explicit(&self) -> bool {
        !self.pattern().ends_with('*')
    }
}

/// An input the run must be given for the item to be checked.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Need {
    pub input: Input,
    /// What stays unchecked without it, in a reader's words.
    pub what: String,
    #[serde(default)]
    pub when: Option<When>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Input {
    /// `--base GIT-REF`: the revision payload schemas are compared with.
    Base,
    /// The SQL files under the cluster's `migrations.path` were checked.
    MigrationFiles,
}

impl Checklist {
    pub fn kind(&self) -> Option<Kind> {
        Kind::parse(&self.kind)
    }
    pub fn item(&self, number: u32) -> Option<&Item> {
        self.items.iter().find(|i| i.number == number)
    }
}

impl Item {
    /// The rules that must not fire, in id order, without repeats.
    pub fn rule_ids(&self) -> &[RuleId] {
        self.ids.get_or_init(|| {
            let mut ids: Vec<RuleId> = self.rules.iter().flat_map(RuleSpec::expand).collect();
            ids.sort();
            ids.dedup();
            ids
        })
    }
    /// The spec that names `rule`, if any.
    pub fn rule_spec(&self, rule: RuleId) -> Option<&RuleSpec> {
        self.rules.iter().find(|s| s.expand().contains(&rule))
    }
    pub fn fields(&self) -> &[Field] {
        self.parsed
            .get_or_init(|| self.evidence.iter().map(FieldSpec::field).collect())
    }
}

/// Parses one checklist file (public for the tests that check the data).
pub fn parse(text: &str) -> Result<Checklist, String> {
    serde_saphyr::from_str(text).map_err(|e| e.to_string())
}

/// Every embedded checklist, in file order.
pub fn all() -> &'static [Checklist] {
    static ALL: OnceLock<Vec<Checklist>> = OnceLock::new();
    ALL.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(path, text)| match parse(text) {
                Ok(c) => c,
                // Embedded at build time and checked by tests/report.rs, so
                // a bad file is a build defect, like a bad rule data file.
                Err(e) => panic!("{path} is invalid: {e}"),
            })
            .collect()
    })
}

/// The checklist for a kind of contract.
pub fn for_kind(kind: Kind) -> Option<&'static Checklist> {
    all().iter().find(|c| c.kind() == Some(kind))
}

/// The embedded file paths and texts (for the data tests).
pub fn sources() -> &'static [(&'static str, &'static str)] {
    &SOURCES
}

/// Where two items would both take the same finding of a rule they share:
/// a rule may serve several items only with `at:` windows that no pointer
/// falls under twice (a finding decides one item), and every one of those
/// items must give its window (an item without `at:` takes all of them).
/// One line per clash; empty when the windows are disjoint.
pub fn at_overlaps(c: &Checklist) -> Vec<String> {
    let mut clashes = Vec::new();
    let mut taken: Vec<(RuleId, u32, &[String])> = Vec::new();
    for item in &c.items {
        for spec in &item.rules {
            for id in spec.expand() {
                for &(other_id, other, window) in &taken {
                    if other_id != id || other == item.number {
                        continue;
                    }
                    let clash = if window.is_empty() || spec.at().is_empty() {
                        Some("one of them takes every finding (no `at:`)".to_string())
                    } else {
                        window.iter().find_map(|a| {
                            spec.at()
                                .iter()
                                .find(|b| patterns_meet(a, b))
                                .map(|b| format!("`{a}` and `{b}` overlap"))
                        })
                    };
                    if let Some(why) = clash {
                        clashes.push(format!(
                            "{}: {id} in items {other} and {}: {why}",
                            c.id, item.number
                        ));
                    }
                }
                taken.push((id, item.number, spec.at()));
            }
        }
    }
    clashes
}

/// Whether some pointer lies under both field patterns (as
/// `evidence::under_pattern` matches them: `*` is any one segment, and a
/// pointer under a field is under it): their common leading segments agree.
fn patterns_meet(a: &str, b: &str) -> bool {
    let a = a.trim_start_matches('/').split('/');
    let b = b.trim_start_matches('/').split('/');
    a.zip(b).all(|(x, y)| x == "*" || y == "*" || x == y)
}

/// `data-platform/10 Migration coordination` for every item whose rules
/// name `rule` (for `platcheck rule`).
pub fn items_deciding(rule: RuleId) -> Vec<String> {
    all()
        .iter()
        .flat_map(|c| {
            c.items
                .iter()
                .filter(move |i| i.rule_ids().contains(&rule))
                .map(move |i| format!("{}/{} {}", c.id, i.number, i.title))
        })
        .collect()
}
