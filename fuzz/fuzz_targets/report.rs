//! A contract on arbitrary bytes, through the whole engine and then the
//! launch-checklist report in every format (markdown, HTML, JSON; full and
//! compact): the report reads what the rules do not (checklist conditions,
//! evidence fields, attribution of findings to items), so it gets its own
//! target. Nothing may panic, and the JSON report parses.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::discover::FileClass;
use platcheck::engine;
use platcheck::report::{self, Format, Options};
use platcheck::settings::Settings;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let settings = Settings::defaults(".".into());
    let files = vec![("contracts/fuzz.yaml".to_string(), FileClass::Yaml, text.to_string())];
    let outcome = engine::run_sources(files, settings, std::path::Path::new(".")).expect("no usage error");
    for compact in [false, true] {
        let opts = Options { compact, ..Options::default() };
        let _ = report::render(Format::Markdown, &outcome, &opts);
        let _ = report::render(Format::Html, &outcome, &opts);
        let json = report::render(Format::Json, &outcome, &opts);
        serde_json::from_str::<serde_json::Value>(&json).unwrap_or_else(|e| panic!("json report: {e}"));
    }
});
