//! When a checklist item applies to a contract. Each condition returns
//! `Ok(())` when the item applies, or `Err(why)` naming the contract values
//! that make it not applicable (the `{why}` of the item's `not_applicable`).
use crate::contracts::Contract;
use crate::contracts::yaml::Node;

/// Every condition a checklist may name in `applies_when`.
pub const NAMES: &[&str] = &[
    "read-replicas",
    "sharded",
    "multi-region",
    "exactly-once",
    "controlled-workflow",
];

/// `None` for an unknown condition name (the data tests forbid those).
pub fn applies(name: &str, c: &Contract) -> Option<Result<(), String>> {
    Some(match name {
        "read-replicas" => read_replicas(c),
        "sharded" => sharded(c),
        "multi-region" => multi_region(c),
        "exactly-once" => exactly_once(c),
        "controlled-workflow" => controlled_workflow(c),
        _ => return None,
    })
}

fn present<'a>(c: &'a Contract, pointer: &str) -> Option<&'a Node> {
    c.get(pointer).filter(|n| !n.is_null())
}

fn text<'a>(c: &'a Contract, pointer: &str) -> Option<&'a str> {
    present(c, pointer).and_then(Node::as_str)
}

fn read_replicas(c: &Contract) -> Result<(), String> {
    if present(c, "/spec/read_replicas").is_none() {
        return Err("spec.read_replicas is absent".into());
    }
    let classes = present(c, "/spec/read_replicas/query_classes").map_or(0, |n| n.as_seq().len());
    match present(c, "/spec/read_replicas/count").and_then(Node::as_i64) {
        Some(n) if n <= 0 && classes == 0 => Err(format!("read_replicas.count is {n}")),
        _ => Ok(()),
    }
}

fn sharded(c: &Contract) -> Result<(), String> {
    if c.is_sharded() {
        return Ok(());
    }
    Err(match present(c, "/spec/sharding/enabled") {
        Some(_) => "sharding.enabled is false".into(),
        None => format!(
            "no spec.sharding block, engine class {}",
            text(c, "/spec/engine/class").unwrap_or("not declared")
        ),
    })
}

fn multi_region(c: &Contract) -> Result<(), String> {
    let regions: Vec<&str> = present(c, "/spec/cross_region/regions")
        .map_or(&[][..], Node::as_seq)
        .iter()
        .filter_map(Node::as_str)
        .collect();
    let mode = text(c, "/spec/cross_region/mode");
    let residency =
        present(c, "/spec/cross_region/residency").is_some_and(|n| !n.as_seq().is_empty());
    let cross_placement = text(c, "/spec/ha/placement") == Some("cross-region");
    if regions.len() > 1 || residency || cross_placement || mode.is_some_and(|m| m != "none") {
        return Ok(());
    }
    let region = regions
        .first()
        .copied()
        .or_else(|| text(c, "/spec/region"))
        .unwrap_or("region not declared");
    Err(match mode {
        Some(m) => format!("{region}, cross_region.mode is {m}"),
        None => region.to_string(),
    })
}

fn exactly_once(c: &Contract) -> Result<(), String> {
    match text(c, "/spec/delivery") {
        Some("exactly-once") => Ok(()),
        Some(d) => Err(format!("delivery is {d}")),
        None => Err("delivery is not declared".into()),
    }
}

const CONTROLLED: [&str; 4] = ["money", "audit", "regulatory", "irreversible-external"];

fn controlled_workflow(c: &Contract) -> Result<(), String> {
    let Some(workflow) = present(c, "/spec/workflow") else {
        return Err("spec.workflow is absent".into());
    };
    // Without `involves` the workflow's kind is unknown: the item applies,
    // and its evidence names the missing field.
    let Some(involves) = workflow.get("involves").filter(|n| !n.is_null()) else {
        return Ok(());
    };
    let involves: Vec<&str> = involves.as_seq().iter().filter_map(Node::as_str).collect();
    if involves.iter().any(|i| CONTROLLED.contains(i)) {
        return Ok(());
    }
    Err(if involves.is_empty() {
        "workflow.involves is empty".into()
    } else {
        format!("workflow involves {}", involves.join(", "))
    })
}
