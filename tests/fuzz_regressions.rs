//! Inputs found by fuzzing (and hand-written hostile ones in the same
//! spirit), replayed on every `cargo test` through the code path of their
//! fuzz target: nothing may panic, every finding is located in the input.
mod common;
use platcheck::RuleId;
use platcheck::discover::FileClass;
use platcheck::engine;
use platcheck::settings::Settings;
use platcheck::source::SourceFile;
use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = common::root()
        .join("tests/fixtures/inputs/fuzz")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "{target}: no regression inputs");
    out
}

fn check(name: &str, display: &str, class: FileClass, text: &str, settings: Settings) {
    let files = vec![(display.to_string(), class, text.to_string())];
    let outcome = engine::run_sources(files, settings, Path::new(".")).expect("no usage error");
    for f in &outcome.findings {
        assert_ne!(
            f.rule,
            RuleId::PC000,
            "{name}: internal error: {}",
            f.message
        );
        assert!(f.line >= 1 && f.column >= 1, "{name}: 1-based positions");
    }
}

#[test]
fn contract_inputs() {
    for (name, bytes) in inputs("contract") {
        let text = String::from_utf8_lossy(&bytes);
        check(
            &name,
            "fuzz.yaml",
            FileClass::Yaml,
            &text,
            Settings::defaults(".".into()),
        );
    }
}

/// The `report` fuzz target's path: the contract inputs through the
/// engine and then the launch-checklist report in every format.
#[test]
fn report_inputs() {
    use platcheck::report::{self, Format, Options};
    for (name, bytes) in inputs("contract") {
        let text = String::from_utf8_lossy(&bytes).to_string();
        let files = vec![("contracts/fuzz.yaml".to_string(), FileClass::Yaml, text)];
        let outcome = engine::run_sources(files, Settings::defaults(".".into()), Path::new("."))
            .expect("no usage error");
        for compact in [false, true] {
            let opts = Options {
                compact,
                ..Options::default()
            };
            assert!(
                !report::render(Format::Markdown, &outcome, &opts).is_empty(),
                "{name}"
            );
            assert!(
                !report::render(Format::Html, &outcome, &opts).is_empty(),
                "{name}"
            );
            let json = report::render(Format::Json, &outcome, &opts);
            serde_json::from_str::<serde_json::Value>(&json)
                .unwrap_or_else(|e| panic!("{name}: json report: {e}"));
        }
    }
}

#[test]
fn sql_inputs() {
    for (name, bytes) in inputs("sql") {
        let text = String::from_utf8_lossy(&bytes);
        for dialect in ["postgresql", "mysql"] {
            let mut s = Settings::defaults(".".into());
            s.sql.dialect = dialect.into();
            check(&name, "migrations/V1__fuzz.sql", FileClass::Sql, &text, s);
        }
    }
}

#[test]
fn markdown_inputs() {
    for (name, bytes) in inputs("markdown") {
        let text = String::from_utf8_lossy(&bytes);
        check(
            &name,
            "docs/python/x.md",
            FileClass::Markdown,
            &text,
            Settings::defaults(".".into()),
        );
        let _ = platcheck::mirror::ere::compile(&text);
    }
}

#[test]
fn config_inputs() {
    for (name, bytes) in inputs("config") {
        let text = String::from_utf8_lossy(&bytes).to_string();
        let s = Settings::from_source(SourceFile::new("platcheck.yaml", "platcheck.yaml", &text));
        let len = s.config.as_ref().map_or(0, |c| c.text.len());
        assert!(
            !s.problems.is_empty(),
            "{name}: hostile config must be reported"
        );
        assert!(
            s.problems.iter().all(|r| r.span.end <= len),
            "{name}: located"
        );
    }
}

/// `config NUL baseline`, run as `platcheck check migrations` with the
/// baseline, as the `config_baseline` fuzz target does.
#[test]
fn config_baseline_inputs() {
    for (name, bytes) in inputs("config_baseline") {
        let (config, baseline) = match bytes.iter().position(|b| *b == 0) {
            Some(i) => (bytes[..i].to_vec(), bytes[i + 1..].to_vec()),
            None => (
                bytes.clone(),
                b"{\"version\": 1, \"entries\": []}\n".to_vec(),
            ),
        };
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("migrations")).unwrap();
        std::fs::write(
            d.path().join("migrations/V1__a.sql"),
            "CREATE INDEX i ON t (a);\n",
        )
        .unwrap();
        std::fs::write(d.path().join("platcheck.yaml"), &config).unwrap();
        std::fs::write(d.path().join("baseline.json"), &baseline).unwrap();
        let overrides = platcheck::settings::Overrides {
            baseline: Some(d.path().join("baseline.json")),
            today: Some(common::today()),
            ..Default::default()
        };
        match engine::run(&[d.path().join("migrations")], d.path(), &overrides) {
            Ok(o) => {
                assert!(o.findings.iter().all(|f| f.rule != RuleId::PC000), "{name}");
                assert!(
                    o.findings.iter().all(|f| f.line >= 1 && f.column >= 1),
                    "{name}"
                );
                assert_eq!(o.summary.files, 1, "{name}: the migration was checked");
                // Gate tokens are compiled only for a gated document; these
                // configs are wrong whatever is checked.
                let hostile = ["huge-glob", "big-ints", "no-nul"]
                    .iter()
                    .any(|h| name.starts_with(h));
                assert!(
                    !hostile
                        || o.findings
                            .iter()
                            .any(|f| f.file.ends_with("platcheck.yaml")),
                    "{name}: the hostile config is reported: {:?}",
                    o.findings
                );
            }
            Err(engine::RunError::Usage(m)) => {
                assert!(m.contains("baseline"), "{name}: {m}");
            }
        }
    }
}
