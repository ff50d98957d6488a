//! The layer table of ARCHITECTURE.md and the one question asked of it:
//! may this top-level module import that one.

/// A layer: its name, the layers it may import, and its modules with their
/// rank inside it.
pub(crate) struct Layer {
    pub(crate) name: &'static str,
    pub(crate) below: &'static [&'static str],
    pub(crate) modules: &'static [(&'static str, u8)],
}

/// Bottom to top. Within a layer a module may import only modules of a
/// lower rank; across layers only the layers listed as below it.
pub(crate) const LAYERS: &[Layer] = &[
    Layer {
        name: "model",
        below: &[],
        modules: &[
            ("bytes", 0),
            ("catalog", 0),
            ("memory", 0),
            ("source", 0),
            ("finding", 1),
            ("emit", 2),
            ("contracts", 3),
            ("outcome", 4),
            ("fingerprint", 5),
        ],
    },
    Layer {
        name: "inputs",
        below: &["model"],
        modules: &[
            ("read", 0),
            ("workspace", 0),
            ("settings", 1),
            ("discover", 2),
        ],
    },
    Layer {
        name: "analyses",
        below: &["model", "inputs"],
        modules: &[("sql", 0), ("mirror", 0), ("compat", 0), ("probe", 0)],
    },
    Layer {
        name: "rules",
        below: &["model", "inputs", "analyses"],
        modules: &[("registry", 0), ("rules", 1)],
    },
    Layer {
        name: "engine",
        below: &["model", "inputs", "analyses", "rules"],
        modules: &[
            ("suppress", 0),
            ("baseline", 0),
            ("changed", 0),
            ("fix", 0),
            ("engine", 1),
        ],
    },
    Layer {
        name: "printers",
        below: &["model"],
        modules: &[("report", 0), ("output", 1)],
    },
    Layer {
        name: "cli",
        below: &["model", "inputs", "analyses", "rules", "engine", "printers"],
        modules: &[("init", 0), ("lsp", 0), ("cli", 1)],
    },
];

/// Items `lib.rs` re-exports at the crate root, and the module they come from.
pub(crate) const ROOT_ITEMS: &[(&str, &str)] = &[
    ("RuleId", "catalog"),
    ("Finding", "finding"),
    ("Severity", "finding"),
    ("Outcome", "outcome"),
    ("run", "engine"),
];

pub(crate) fn place(module: &str) -> Option<(&'static str, u8)> {
    LAYERS.iter().find_map(|l| {
        l.modules
            .iter()
            .find(|(m, _)| *m == module)
            .map(|&(_, rank)| (l.name, rank))
    })
}

pub(crate) fn may_import(from: &str, to: &str) -> Result<(), String> {
    if from == to {
        return Ok(());
    }
    let (Some((fl, fr)), Some((tl, tr))) = (place(from), place(to)) else {
        return Err(format!(
            "`{from}` -> `{to}`: a module missing from the layer table"
        ));
    };
    let below = LAYERS
        .iter()
        .find(|l| l.name == fl)
        .map_or(&[][..], |l| l.below);
    let ok = if fl == tl {
        tr < fr
    } else {
        below.contains(&tl)
    };
    if ok {
        Ok(())
    } else if fl == tl {
        Err(format!(
            "{from} (rank {fr} in {fl}) may not import {to} (rank {tr}): sideways or upward"
        ))
    } else {
        Err(format!(
            "{from} ({fl}) may not import {to} ({tl}): {tl} is not below {fl}"
        ))
    }
}
