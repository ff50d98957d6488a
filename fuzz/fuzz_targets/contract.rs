//! Contract loading: YAML with positions, schema validation, units, and the
//! suppression scanner, on arbitrary bytes. Nothing may panic, and every
//! reported span must lie inside the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::contracts::load;
use platcheck::discover::FileClass;
use platcheck::emit::Sink;
use platcheck::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = SourceFile::new("fuzz.yaml", "fuzz.yaml", text);
    let mut sink = Sink::default();
    let contracts = load::load_file(0, &src, &mut sink);
    for r in &sink.reports {
        assert!(r.span.start <= r.span.end && r.span.end <= src.text.len(), "span out of range");
        let lc = src.line_col(r.span.start);
        assert!(lc.line >= 1 && lc.column >= 1);
    }
    if let Some(cs) = contracts {
        for c in &cs {
            let span = c.span_for("/spec/ha/rpo");
            assert!(span.end <= src.text.len());
        }
    }
    let today = jiff_today();
    let _ = platcheck::suppress::scan(0, &src, FileClass::Yaml, today);
});

fn jiff_today() -> platcheck::settings::Date {
    platcheck::settings::system_today()
}
