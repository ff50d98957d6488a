//! The mirrored-section gate on arbitrary Markdown: region, the document's
//! own gate section and grep command, ERE translation, siblings. The input
//! is cut in half (at a character boundary) to give a sibling pair. Nothing
//! may panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::RuleId;
use platcheck::discover::FileClass;
use platcheck::engine;
use platcheck::settings::Settings;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mid = (0..=text.len() / 2).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
    let (a, b) = text.split_at(mid);
    let files = vec![
        ("docs/python/event-driven-architecture.md".to_string(), FileClass::Markdown, a.to_string()),
        ("docs/go/event-driven-architecture.md".to_string(), FileClass::Markdown, b.to_string()),
    ];
    let outcome = engine::run_sources(files, Settings::defaults(".".into()), std::path::Path::new("."))
        .expect("no usage error");
    for f in &outcome.findings {
        assert_ne!(f.rule, RuleId::PC000, "internal error: {}", f.message);
    }
    // The standalone ERE translator must also survive any pattern.
    let _ = platcheck::mirror::ere::compile(text);
});
