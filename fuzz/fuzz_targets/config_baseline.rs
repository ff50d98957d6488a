//! A `platcheck.yaml` and a baseline on arbitrary bytes, through a whole
//! `platcheck check` of a small repository (a contract and a migration that
//! raise findings): config problems are located findings, a bad baseline is
//! a usage error naming the file, and nothing panics or leaves the run
//! without a result.
//!
//! The input is `config NUL baseline` (no NUL: all config, the baseline is
//! the repository's own valid one).
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::RuleId;
use platcheck::engine::{self, RunError};
use platcheck::settings::Overrides;
use std::path::PathBuf;
use std::sync::OnceLock;

const MIGRATION: &str = "CREATE INDEX i ON t (a);\nALTER TABLE t ADD COLUMN b int NOT NULL;\n";
const BASELINE: &str = "{\"version\": 1, \"entries\": []}\n";

/// One directory per fuzzing process, rewritten for every input.
fn repo() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("platcheck-fuzz-cb-{}", std::process::id()));
        std::fs::create_dir_all(d.join("migrations")).unwrap();
        std::fs::write(d.join("migrations/V1__a.sql"), MIGRATION).unwrap();
        d
    })
}

fuzz_target!(|data: &[u8]| {
    let (config, baseline) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, BASELINE.as_bytes()),
    };
    let dir = repo();
    std::fs::write(dir.join("platcheck.yaml"), config).unwrap();
    std::fs::write(dir.join("baseline.json"), baseline).unwrap();
    let overrides = Overrides {
        baseline: Some(dir.join("baseline.json")),
        today: Some("2026-11-30".parse().unwrap()),
        ..Overrides::default()
    };
    match engine::run(&[dir.join("migrations")], dir, &overrides) {
        Ok(outcome) => {
            for f in &outcome.findings {
                assert_ne!(f.rule, RuleId::PC000, "internal error: {}", f.message);
                assert!(f.line >= 1 && f.column >= 1, "1-based positions");
            }
            // Never silently green: the migration was checked, or the named
            // directory has a finding saying why it was not (PC017).
            assert!(
                outcome.summary.files >= 1
                    || outcome
                        .findings
                        .iter()
                        .any(|f| f.rule == RuleId::PC017 && f.file == "migrations"),
                "the migration was checked, or a finding says why not"
            );
        }
        // Only a baseline the run cannot read, or a config it cannot read at
        // all, stops it; the message says which file.
        Err(RunError::Usage(m)) => {
            assert!(m.contains("baseline") || m.contains("platcheck.yaml") || m.contains("config"), "{m}");
        }
    }
});
