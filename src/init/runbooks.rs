//! The runbooks the scaffolded contracts name: real files, so every
//! reference resolves and `check` is green, each starting with the
//! placeholder line the launch report looks for.

/// The first line of a runbook `init` wrote and nobody has filled in yet.
/// The launch report shows such a runbook as missing evidence.
pub const PLACEHOLDER: &str = crate::source::PLACEHOLDER_RUNBOOK;

const RUNBOOKS: &[(&str, &str)] = &[
    (
        "example-db/scale-up.md",
        "Scale up example-db (a bigger instance class)",
    ),
    (
        "example-db/scale-out.md",
        "Scale out example-db (to the next tier)",
    ),
    ("example-db/decommission.md", "Decommission example-db"),
    (
        "example-db/storage.md",
        "example-db: storage above its alert threshold",
    ),
    (
        "example-db/iops.md",
        "example-db: IOPS above its alert threshold",
    ),
    (
        "example-db/connections.md",
        "example-db: connections above their alert threshold",
    ),
    (
        "example-db/latency.md",
        "example-db: p99 latency above its alert threshold",
    ),
    (
        "example-db/replica-lag.md",
        "example-db: replica lag above its alert threshold",
    ),
    (
        "example-created/repartition.md",
        "Repartition the example.created topic",
    ),
];

pub fn all() -> Vec<(String, String)> {
    RUNBOOKS
        .iter()
        .map(|(path, title)| {
            (
                format!("docs/runbooks/{path}"),
                format!(
                    "{PLACEHOLDER}\n\n# {title}\n\nTODO: who is paged, the steps in order, how to verify each one, how to roll back.\nDelete the first line once this is the real procedure.\n"
                ),
            )
        })
        .collect()
}
