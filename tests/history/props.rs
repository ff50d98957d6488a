//! Properties of the replay: the order files are written to disk in never
//! changes the findings, and no mix of directive lines breaks it.
use super::{fixture, run_dir};
use crate::common;
use platcheck::RuleId;
use platcheck::engine;
use proptest::prelude::*;
use std::path::Path;

/// Every file of the layout fixtures, as (path below the fixture, text).
fn fixture_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    for layout in ["golang-migrate", "flyway", "dbmate", "plain", "popx"] {
        let base = common::root().join(fixture(layout));
        let mut files = Vec::new();
        walk(&base, &base, &mut files);
        for (rel, text) in files {
            if rel != "platcheck.yaml" {
                out.push((format!("{layout}/{rel}"), text));
            }
        }
    }
    out.sort();
    out
}

fn findings_of(files: &[(String, String)], order: &[usize]) -> Vec<String> {
    let mut entries: Vec<(&str, &str)> =
        vec![("platcheck.yaml", "version: 1\ntoday: 2026-11-30\n")];
    entries.extend(
        order
            .iter()
            .map(|&i| (files[i].0.as_str(), files[i].1.as_str())),
    );
    let out = run_dir(&entries);
    out.findings
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{} {} {}",
                f.file, f.line, f.column, f.rule, f.message
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The files are written to disk in a shuffled order (so directory
    /// listings differ); the findings never do.
    #[test]
    fn shuffling_files_on_disk_never_changes_findings(
        shuffled in Just((0..fixture_files().len()).collect::<Vec<usize>>()).prop_shuffle()
    ) {
        let files = fixture_files();
        let sorted: Vec<usize> = (0..files.len()).collect();
        prop_assert_eq!(findings_of(&files, &shuffled), findings_of(&files, &sorted));
    }
}

/// Lines a migration file of any layout might hold, to build odd files from.
const LINES: &[&str] = &[
    "-- migrate:up",
    "-- migrate:down transaction:false",
    "-- +goose Up",
    "-- +goose Down",
    "-- +goose StatementBegin",
    "-- +goose StatementEnd",
    "-- +goose NO TRANSACTION",
    "-- +migrate Up notransaction",
    "-- +migrate Down",
    "--liquibase formatted sql",
    "--changeset a:1 runInTransaction:false",
    "--changeset broken",
    "--rollback DROP TABLE t;",
    "/* liquibase rollback",
    "*/",
    "CREATE TABLE t (a int, b text);",
    "CREATE INDEX CONCURRENTLY i ON t (a);",
    "ALTER TABLE t ALTER COLUMN b TYPE varchar(10);",
    "UPDATE t SET a = 1;",
    "'unterminated",
    "$$ body",
    "é ünïcode",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any mix of directive lines and SQL, under any layout's file name:
    /// no internal error, every finding inside its file.
    #[test]
    fn odd_files_never_break_the_history(
        lines in proptest::collection::vec(proptest::sample::select(LINES), 0..14),
        name in proptest::sample::select(&[
            "db/20240101000001_a.sql",
            "m/00001_a.sql",
            "c/changelog.sql",
            "f/V1__a.sql",
            "g/1_a.up.sql",
            "g/1_a.down.sql",
            "d/2024-01-01-000001_a/up.sql",
            "s/deploy/a.sql",
        ][..]),
    ) {
        let text = lines.join("\n");
        let mut files = vec![(name.to_string(), platcheck::discover::FileClass::Sql, text.clone())];
        if name.starts_with("s/") {
            files.push((
                "s/sqitch.plan".into(),
                platcheck::discover::FileClass::Sql,
                "%project=p\na 2024-01-01T00:00:00Z A <a@x>\nb 2024-01-02T00:00:00Z A <a@x>\n".into(),
            ));
        }
        let settings = platcheck::settings::Settings::defaults(".".into());
        let out = engine::run_sources(files, settings, Path::new(".")).expect("runs");
        for f in &out.findings {
            prop_assert_ne!(f.rule, RuleId::PC000, "{}", f.message);
            prop_assert!(f.line >= 1 && f.column >= 1);
        }
    }
}
