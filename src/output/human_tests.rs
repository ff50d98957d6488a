//! The human printer's own renderer against the oracle (`human_oracle`,
//! the printer as miette drew it), byte for byte, on random sources and
//! findings: wide and zero-width characters, tabs, CRLF, controls, long
//! lines, spans over several lines or none, labels and helps over several
//! lines, groups, diffs, at several widths, in colour and without.
use super::human::{self, Style};
use super::human_oracle;
use crate::catalog::RuleId;
use crate::finding::{ContractRef, Finding, Severity};
use crate::outcome::Outcome;
use crate::source::SourceFile;
use proptest::prelude::*;

fn outcome(files: Vec<SourceFile>, mut findings: Vec<Finding>) -> Outcome {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    super::stream::tests::outcome_of(files, findings, vec!["a note".into()])
}

/// Pieces of source text: what changes a column or a line.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z]{1,8}",
        3 => Just(" ".to_string()),
        2 => Just("\n".to_string()),
        1 => Just("\r\n".to_string()),
        1 => Just("\t".to_string()),
        1 => Just("漢字".to_string()),
        1 => Just("e\u{301}".to_string()),
        1 => Just("🎉".to_string()),
        1 => Just("\u{200b}".to_string()),
        // Width 1 in unicode-width 0.1, 0 in 0.2.
        1 => Just("\u{5c8}".to_string()),
        1 => Just("\u{1b}[31m".to_string()),
        1 => Just("\r".to_string()),
        1 => Just("\u{9b}".to_string()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(piece(), 0..60).prop_map(|p| p.concat()),
        1 => (0usize..3, 4090usize..4100).prop_map(|(n, w)| {
            format!("{}{}\nshort\n", "a\n".repeat(n), "x".repeat(w))
        }),
    ]
}

/// Prose: words, spaces, line breaks, blank lines, long words.
fn prose() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => "[a-z]{1,9}",
            4 => Just(" ".to_string()),
            1 => Just("  ".to_string()),
            1 => Just("\n".to_string()),
            1 => Just("\n\n".to_string()),
            1 => Just("\n@@ -1 +1 @@\n-a\n+b".to_string()),
            1 => Just("x".repeat(70)),
            1 => Just("漢字".to_string()),
            1 => Just("\u{1b}".to_string()),
        ],
        0..30,
    )
    .prop_map(|p| p.concat())
}

type Raw = (
    u8,
    u8,
    bool,
    (u16, u16),
    String,
    Option<String>,
    Option<String>,
);

fn finding(src: &SourceFile, (rule, sev, grouped, (a, b), message, help, pointer): Raw) -> Finding {
    let n = src.text.len();
    // Offsets on character boundaries, up to one past the end.
    let at = |x: u16| {
        let mut i = usize::from(x) % (n + 2);
        while i <= n && !src.text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let (start, end) = (at(a).min(at(b)), at(a).max(at(b)));
    let (s, e) = (src.line_col(start), src.line_col(end));
    Finding {
        rule: [RuleId::EV071, RuleId::MG001, RuleId::MR004][usize::from(rule % 3)],
        severity: [Severity::Error, Severity::Warning, Severity::Notice][usize::from(sev % 3)],
        file: src.display.clone(),
        line: s.line,
        column: s.column,
        end_line: e.line,
        end_column: e.column,
        start,
        end,
        message,
        help,
        contract: grouped.then(|| {
            Box::new(ContractRef {
                kind: "EventBoundary".into(),
                name: "orders".into(),
            })
        }),
        pointer,
        sql: None,
        fix: None,
        related: Vec::new(),
    }
}

fn raw() -> impl Strategy<Value = Raw> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
        (any::<u16>(), any::<u16>()),
        prose(),
        prop::option::of(prose()),
        prop::option::of(prop_oneof![
            "/[a-z]{1,6}(/[0-9])?",
            Just("/a\nb".to_string()),
            Just(String::new()),
        ]),
    )
}

fn same(o: &Outcome) {
    for width in [0, 40, 57, 80, 200] {
        for color in [false, true] {
            let style = Style {
                color,
                width,
                quiet: false,
            };
            let new = human::render(o, style);
            let old = human_oracle::render(o, style);
            assert!(
                new == old,
                "width {width}, colour {color}:\n--- miette\n{old}\n--- ours\n{new}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn the_renderer_draws_what_miette_drew(
        texts in prop::collection::vec(text(), 1..3),
        raws in prop::collection::vec((0usize..2, raw()), 1..7),
    ) {
        let files: Vec<SourceFile> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| SourceFile::new(format!("f{i}\t.yaml"), format!("f{i}"), t))
            .collect();
        let findings = raws
            .into_iter()
            .map(|(i, r)| finding(&files[i % files.len()], r))
            .collect();
        same(&outcome(files, findings));
    }
}

/// Spans over several lines, nested and crossing, with labels of several
/// lines: the gutter shapes random spans rarely reach.
#[test]
fn multi_line_spans_are_drawn_as_miette_drew_them() {
    let text = "one\ntwo two\n\tthree\nfour 漢字 four\nfive\nsix\nseven\n";
    let src = SourceFile::new("m.yaml", "m.yaml", text);
    let spans = [
        (0, 12),
        (4, 30),
        (5, 6),
        (8, 40),
        (20, 21),
        (40, 44),
        (44, 44),
    ];
    for k in 1..=spans.len() {
        let findings = spans[..k]
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| {
                let pointer = if i % 2 == 0 { "/p\nq" } else { "/r" };
                finding(
                    &src,
                    (
                        1,
                        i as u8,
                        true,
                        (a, b),
                        format!("m{i}"),
                        None,
                        Some(pointer.into()),
                    ),
                )
            })
            .collect();
        let src = SourceFile::new("m.yaml", "m.yaml", text);
        same(&outcome(vec![src], findings));
    }
}
