//! platcheck.yaml on arbitrary bytes: every problem is a located finding,
//! never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::settings::Settings;
use platcheck::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let settings = Settings::from_source(SourceFile::new("platcheck.yaml", "platcheck.yaml", text));
    let len = settings.config.as_ref().map_or(0, |c| c.text.len());
    for r in &settings.problems {
        assert!(r.span.end <= len, "problem span out of range");
    }
});
