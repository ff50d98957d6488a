//! Migration SQL on arbitrary bytes, through the whole engine: splitting
//! (strings, dollar quotes, nested comments, DELIMITER), sqlparser and the
//! token classifier, the lock table and every MG rule, for PostgreSQL and
//! MySQL. Nothing may panic and every finding is located inside the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use platcheck::RuleId;
use platcheck::discover::FileClass;
use platcheck::engine;
use platcheck::settings::Settings;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for dialect in ["postgresql", "mysql"] {
        let mut settings = Settings::defaults(".".into());
        settings.sql.dialect = dialect.into();
        if dialect == "mysql" {
            settings.sql.version = "8.0".into();
        }
        let files = vec![("migrations/V1__fuzz.sql".to_string(), FileClass::Sql, text.to_string())];
        let outcome = engine::run_sources(files, settings, std::path::Path::new(".")).expect("no usage error");
        for f in &outcome.findings {
            assert_ne!(f.rule, RuleId::PC000, "internal error: {}", f.message);
            assert!(f.line >= 1 && f.column >= 1 && f.end >= f.start && f.end <= text.len() + 3);
        }
    }
    // The splitter alone: pieces cover the input in order, without overlap.
    let pieces = platcheck::sql::split::split(text, platcheck::sql::Dialect::Postgres);
    let mut at = 0;
    for p in &pieces {
        assert!(p.span.start >= at && p.span.end <= text.len());
        at = p.span.end;
    }
});
