//! Analysis limits fail closed: a statement platcheck could not read to its
//! end (too many tokens for the classifier, too large for the parser, nested
//! deeper than the parser goes) is a PC009 *error* where the limit was hit,
//! never a warning that lets the gate pass, and the statements after it are
//! still checked.
#![cfg(unix)]
mod common;
use common::sandbox::{Sandbox, stdout};
use serde_json::Value;

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";

/// A finding as (rule, severity, line, column, message).
type Found = (String, String, u64, u64, String);

/// The findings of a `check --format json` run, and the exit code.
fn check(sb: &Sandbox) -> (i32, Vec<Found>) {
    let o = sb.run(&["check", "--format", "json", "."]);
    let doc: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    let f = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_string();
            let n = |k: &str| f[k].as_u64().unwrap();
            (
                s("rule"),
                s("severity"),
                n("line"),
                n("column"),
                s("message"),
            )
        })
        .collect();
    (o.status.code().expect("exited"), f)
}

fn pc009(f: &[Found]) -> Vec<(String, u64, u64, String)> {
    f.iter()
        .filter(|f| f.0 == "PC009")
        .map(|f| (f.1.clone(), f.2, f.3, f.4.clone()))
        .collect()
}

#[test]
fn a_statement_past_the_token_limit_is_an_error_where_the_limit_was_hit() {
    let sb = Sandbox::new(CONFIG);
    // 5,000 cheap actions (25,000 tokens), then the rewrite the classifier
    // never sees: passing quietly here would hide MG012. `starts` holds
    // where each token begins.
    let mut sql = String::new();
    let mut starts = Vec::new();
    let mut push = |tok: &str, sep: &str| {
        starts.push(sql.len());
        sql.push_str(tok);
        sql.push_str(sep);
    };
    for t in ["ALTER", "TABLE", "t"] {
        push(t, " ");
    }
    for i in 0..5000 {
        if i > 0 {
            push(",", " ");
        }
        for t in ["ADD", "COLUMN", &format!("c{i}"), "int"] {
            push(t, " ");
        }
    }
    sql.push_str(", ALTER COLUMN x TYPE bigint;\nCREATE INDEX i ON t (a);\n");
    let at = starts[20_000];
    sb.write("m.sql", &sql);
    let (code, f) = check(&sb);
    let p = pc009(&f);
    assert_eq!(p.len(), 1, "{f:?}");
    assert_eq!(p[0].0, "error");
    assert_eq!((p[0].1, p[0].2), (1, at as u64 + 1));
    assert!(
        p[0].3.contains("longer than the 20000 tokens"),
        "{}",
        p[0].3
    );
    assert!(f.iter().any(|f| f.0 == "MG001" && f.2 == 2), "{f:?}");
    assert_eq!(code, 1);
}

#[test]
fn a_data_load_past_the_limits_is_no_error_but_a_call_in_its_tail_is() {
    let sb = Sandbox::new(CONFIG);
    // 10,000 literal rows: 60,000 tokens, nothing in them can lock.
    let rows: Vec<String> = (0..10_000).map(|i| format!("({i}, 'v{i}')")).collect();
    sb.write(
        "a.sql",
        format!(
            "INSERT INTO t (a, b) VALUES {} ON CONFLICT DO NOTHING;\n",
            rows.join(", ")
        ),
    );
    // The same load with a function call at its end, past the limit.
    sb.write(
        "b.sql",
        format!(
            "INSERT INTO t (a, b) VALUES {}, (0, f());\n",
            rows.join(", ")
        ),
    );
    let (_, f) = check(&sb);
    let errors: Vec<_> = f
        .iter()
        .filter(|f| f.0 == "PC009" && f.1 == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{f:?}");
    assert!(errors[0].4.contains("longer than the 20000 tokens"));
    let o = sb.run(&["check", "--format", "json", "a.sql"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        !doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule"] == "PC009"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_deeply_nested_statement_is_an_error_at_the_parsers_last_level() {
    let sb = Sandbox::new(CONFIG);
    // One `)` too many: the classifier refuses it, sqlparser runs out of
    // recursion before it gets there.
    let head = "ALTER TABLE t ADD CONSTRAINT c CHECK ";
    sb.write(
        "m.sql",
        format!("{head}{}1{};\n", "(".repeat(60), ")".repeat(61)),
    );
    let (code, f) = check(&sb);
    let p = pc009(&f);
    assert_eq!(p.len(), 1, "{f:?}");
    assert_eq!(
        (p[0].0.as_str(), p[0].1, p[0].2),
        // platcheck's own count (not the parser's message) decides: three
        // levels for the statement and its CHECK expression, then one per
        // `(`, past the parser's 50 at the 48th (sqlparser gives up inside
        // the 49th; the count errs early, never late).
        ("error", 1, head.len() as u64 + 48)
    );
    assert!(
        p[0].3.contains("nests deeper than the 50 levels"),
        "{}",
        p[0].3
    );
    assert_eq!(code, 1);
}

#[test]
fn a_syntax_error_before_deep_nesting_is_the_parsers_own_warning() {
    let sb = Sandbox::new(CONFIG);
    // The parser stops at `2`, long before the nesting: its message stands.
    let sql = format!(
        "ALTER TABLE t ADD CONSTRAINT c CHECK 1 2 {}1{};\n",
        "(".repeat(60),
        ")".repeat(61)
    );
    sb.write("m.sql", &sql);
    let (code, f) = check(&sb);
    let p = pc009(&f);
    assert_eq!(p.len(), 1, "{f:?}");
    assert_eq!((p[0].0.as_str(), p[0].1), ("warning", 1), "{p:?}");
    assert!(!p[0].3.contains("nests deeper"), "{}", p[0].3);
    assert_eq!(code, 0, "{f:?}");
}

#[test]
fn a_statement_too_large_for_the_parser_is_an_error_at_the_size_limit() {
    let sb = Sandbox::new(CONFIG);
    // Few tokens (one string), more than the parser's 1 MiB, and a stray
    // `)` so that the classifier does not recognise it either.
    let head = "ALTER TABLE t ADD CONSTRAINT c CHECK (x <> '";
    let sql = format!(
        "{head}{}'));\nCREATE INDEX i ON t (a);\n",
        "v".repeat(1 << 20)
    );
    sb.write("m.sql", &sql);
    let (code, f) = check(&sb);
    let p = pc009(&f);
    assert_eq!(p.len(), 1, "{f:?}");
    assert_eq!(
        (p[0].0.as_str(), p[0].1, p[0].2),
        ("error", 1, (1 << 20) + 1)
    );
    assert!(
        p[0].3.contains("larger than the 1 MiB the parser reads"),
        "{}",
        p[0].3
    );
    assert!(f.iter().any(|f| f.0 == "MG001" && f.2 == 2), "{f:?}");
    assert_eq!(code, 1);
}

#[test]
fn an_ordinary_syntax_error_stays_a_warning() {
    let sb = Sandbox::new("version: 1\ntoday: 2026-11-30\nfail_on: error\n");
    sb.write("m.sql", "ALTER TABEL t DROP COLUMN x;\n");
    let (code, f) = check(&sb);
    let p = pc009(&f);
    assert_eq!(p.len(), 1, "{f:?}");
    assert_eq!(p[0].0, "warning");
    assert_eq!(code, 0);
}
