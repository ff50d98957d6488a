//! Property tests of the statement splitter: the pieces tile the input
//! (nothing lost, nothing counted twice), bodies lie inside their pieces, and
//! statements joined with `;` come back exactly — for any mix of strings,
//! quoted identifiers, dollar quotes and comments.
use platcheck::sql::Dialect;
use platcheck::sql::lexer::tokens;
use platcheck::sql::split::{Splitter, Tokens, split};
use proptest::prelude::*;

/// Fragments that stress the splitter: each is closed, so it never hides a
/// following `;` (the "unclosed" case is covered by `any_text_tiles`).
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_]{1,8}".prop_map(|s| s),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("'a;b'".to_string()),
        Just("'it''s;'".to_string()),
        Just("\"we;ird\"".to_string()),
        // `$` continues an identifier in PostgreSQL, so a dollar quote needs a
        // separator before it, as in real SQL.
        Just(" $$ x; y $$".to_string()),
        Just(" $fn$ a; $$ ; $fn$".to_string()),
        Just("/* c; /* nested; */ */".to_string()),
        Just("-- line; comment\n".to_string()),
        Just("(1, 2)".to_string()),
        Just("::int".to_string()),
        Just("${var}".to_string()),
        Just("é".to_string()),
    ]
}

fn statement() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 1..8).prop_map(|v| format!("select {}", v.concat()))
}

fn check_tiling(text: &str, d: Dialect) {
    let pieces = split(text, d);
    let mut at = 0;
    for p in &pieces {
        assert_eq!(p.span.start, at, "gap or overlap at {at}");
        assert!(p.span.end >= p.span.start);
        assert!(p.body.start >= p.span.start && p.body.end <= p.span.end);
        at = p.span.end;
    }
    assert_eq!(at, text.len(), "pieces must cover the whole input");
}

proptest! {
    #[test]
    fn statements_round_trip(stmts in prop::collection::vec(statement(), 1..10)) {
        let text = stmts.join(";\n") + ";";
        let pieces = split(&text, Dialect::Postgres);
        let bodies: Vec<&str> = pieces
            .iter()
            .filter(|p| p.is_statement())
            .map(|p| text[p.body.start..p.body.end].trim_end())
            .collect();
        let want: Vec<&str> = stmts.iter().map(|s| s.trim_end()).collect();
        // A trailing line comment belongs to trivia, not the body.
        let norm = |s: &str| s.lines().filter(|l| !l.trim().is_empty()).count() > 0;
        prop_assert_eq!(bodies.len(), want.len());
        for (b, w) in bodies.iter().zip(&want) {
            prop_assert!(norm(b));
            prop_assert!(w.starts_with(b), "body {:?} is not a prefix of {:?}", b, w);
        }
        check_tiling(&text, Dialect::Postgres);
    }

    #[test]
    fn any_text_tiles(text in "[ -~\n\u{e9}$;'\"`#/*-]{0,200}") {
        check_tiling(&text, Dialect::Postgres);
        check_tiling(&text, Dialect::MySql);
    }

    /// The analysis reads each statement's tokens as the splitter lexed
    /// them (one pass per file) instead of lexing its body again: outside a
    /// custom `DELIMITER` the two must be the same tokens, so nothing the
    /// classifier sees changes.
    #[test]
    fn splitter_tokens_are_the_body_lexed_alone(text in "[ -~\n\u{e9}$;'\"`#/*{}%:-]{0,200}") {
        for d in [Dialect::Postgres, Dialect::MySql] {
            check_tokens(&text, d, usize::MAX);
            check_tokens(&text, d, 3);
        }
    }

    #[test]
    fn splitter_tokens_of_real_statements(stmts in prop::collection::vec(statement(), 1..10)) {
        let text = stmts.join(";\n") + ";";
        check_tokens(&text, Dialect::Postgres, usize::MAX);
    }
}

fn check_tokens(text: &str, d: Dialect, limit: usize) {
    let mut s = Splitter::new(text, d);
    let mut toks = Vec::new();
    while let Some(p) = s.next_piece(Some(Tokens {
        out: &mut toks,
        limit,
    })) {
        if !p.is_statement() || s.custom_delimiter() {
            continue;
        }
        let body = &text[p.body.start..p.body.end];
        let mut want = tokens(body, d, limit);
        for t in &mut want {
            t.start += p.body.start;
            t.end += p.body.start;
        }
        assert_eq!(toks, want, "{body:?} in {text:?} ({d:?})");
    }
}
