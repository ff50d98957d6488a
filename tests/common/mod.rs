//! Shared helpers for the integration tests.
#![allow(dead_code)]
use platcheck::engine::{self, Outcome};
use platcheck::output::{human, json};
use platcheck::settings::Overrides;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn today() -> jiff::civil::Date {
    "2026-11-30".parse().unwrap()
}

/// Runs the engine as `platcheck check <paths>` from the repository root,
/// with today pinned so snapshots never age.
pub fn check(paths: &[&Path]) -> Outcome {
    let overrides = Overrides {
        today: Some(today()),
        ..Overrides::default()
    };
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::run(&paths, &root(), &overrides).expect("run succeeds")
}

pub fn human(outcome: &Outcome) -> String {
    human::render(
        outcome,
        human::Style {
            color: false,
            width: 100,
            quiet: true,
        },
    )
}

pub fn json(outcome: &Outcome) -> String {
    json::render(outcome)
}
