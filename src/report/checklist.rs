//! The launch checklists as data (`rules/checklists/*.yaml`, embedded). The
//! rules that decide an item are not in the YAML: each rule names its item
//! in its own front matter (`checklist: data-platform/2`), and `rules()`
//! collects them, so a rule id is written in one place only.
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
    /// What rules write before the slash (`data-platform`).
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
    /// The item in our own words.
    pub text: String,
    /// The reference section behind it.
    pub source: String,
    /// Contract values shown as evidence (JSON pointers, `*` = every element).
    #[serde(default)]
    pub evidence: Vec<String>,
    /// For an item no rule decides: fields whose presence attests it.
    #[serde(default)]
    pub attest: Vec<String>,
    /// A condition name (see `conditions.rs`); the item is not applicable
    /// when it does not hold.
    #[serde(default)]
    pub applies_when: Option<String>,
    /// Why it is not applicable; `{why}` is filled from the contract.
    #[serde(default)]
    pub not_applicable: Option<String>,
}

impl Checklist {
    pub fn kind(&self) -> Option<Kind> {
        Kind::parse(&self.kind)
    }
    pub fn item(&self, number: u32) -> Option<&Item> {
        self.items.iter().find(|i| i.number == number)
    }
    /// The rules that name `<id>/<number>` in their front matter, in id order.
    pub fn rules(&self, number: u32) -> Vec<RuleId> {
        let key = format!("{}/{number}", self.id);
        RuleId::ALL
            .iter()
            .copied()
            .filter(|r| r.meta().checklist.as_deref() == Some(key.as_str()))
            .collect()
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

/// Splits a rule's `checklist:` value (`data-platform/2`).
pub fn split_ref(value: &str) -> Option<(&str, u32)> {
    let (id, n) = value.split_once('/')?;
    Some((id, n.parse().ok()?))
}
