//! Property test of every printer on random outcomes (the same generator
//! and checks as the `printers` fuzz target, shared in
//! support/printer_checks.rs, run by `cargo test`): no printer panics, JSON
//! parses, SARIF URIs are percent-encoded, gcc keeps one line per finding,
//! no raw control character reaches the terminal and CI formats, GitHub's
//! 10-per-level cap holds, JUnit has only XML 1.0 characters.
#[path = "support/printer_checks.rs"]
mod printer_checks;
use printer_checks::{check, outcome};
use proptest::prelude::*;

/// Names with the characters each format must escape, besides any string.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}/[a-z ]{1,6}\\.yaml".prop_map(|s| s),
        any::<String>(),
        Just("x\n<b>|y\u{1b}[31m.md".to_string()),
        Just("a\\b%c é.sql".to_string()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "([a-z:\\- ]{0,20}\n){0,8}".prop_map(|s| s),
        Just("k\u{1b}]0;t\u{7}: 1\r\nlone\rcr\u{9b}\n".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn every_printer_is_well_formed_on_random_findings(
        files in prop::collection::vec((name(), text()), 0..3),
        raw in prop::collection::vec(
            (
                (any::<usize>(), any::<u8>(), 0usize..4, (any::<usize>(), any::<usize>())),
                (
                    any::<String>(),
                    any::<Option<String>>(),
                    any::<Option<String>>(),
                    any::<Option<String>>(),
                    prop_oneof![Just("gone\u{1b}.yaml".to_string()), name()],
                ),
            ),
            0..30,
        ),
    ) {
        check(&outcome(files, raw));
    }
}
