//! A contract on arbitrary bytes, through the whole engine: YAML with
//! positions, schema validation, units, every Cluster / EventBoundary rule,
//! suppressions and rendering. Nothing may panic (a panic in a rule would
//! show as PC000), and every finding is located inside the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::RuleId;
use platcheck::discover::FileClass;
use platcheck::engine;
use platcheck::settings::Settings;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let settings = Settings::defaults(".".into());
    let files = vec![("fuzz.yaml".to_string(), FileClass::Yaml, text.to_string())];
    let outcome = engine::run_sources(files, settings, std::path::Path::new(".")).expect("no usage error");
    for f in &outcome.findings {
        assert_ne!(f.rule, RuleId::PC000, "internal error: {}", f.message);
        assert!(f.line >= 1 && f.column >= 1 && f.end >= f.start);
    }
    let _ = platcheck::output::human::render(
        &outcome,
        platcheck::output::human::Style { color: false, width: 100, quiet: true },
    );
});
