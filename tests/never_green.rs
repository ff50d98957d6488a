//! Inputs that once turned the gate green without looking (issue 17): an
//! unclosed lexer state, a template tag, COPY data. Each runs the built
//! binary and asserts the located finding and the exit code; `assert_looked`
//! holds every case to "a clean check or a finding, never a silent 0".
use serde_json::Value;
use std::process::Command;

mod common;

/// Runs `platcheck check --format json .` in a temporary repository holding
/// `files`; returns the exit code and the findings.
pub fn run(files: &[(&str, &str)]) -> (i32, Vec<Value>, Value) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["check", "--format", "json", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    let code = o.status.code().expect("no signal");
    assert_looked(code, &doc, files.len());
    let findings = doc["findings"].as_array().unwrap().clone();
    (code, findings, doc["summary"].clone())
}

/// Exit 0 only after every file was checked and nothing at or above the
/// default `--fail-on error` was found; anything else carries a finding.
fn assert_looked(code: i32, doc: &Value, files: usize) {
    let s = &doc["summary"];
    if code == 0 {
        assert_eq!(s["files"].as_u64(), Some(files as u64), "{doc}");
        assert_eq!(s["errors"].as_u64(), Some(0), "{doc}");
    } else {
        assert!(!doc["findings"].as_array().unwrap().is_empty(), "{doc}");
    }
}

/// The `(line, column, severity)` of each finding of `rule`.
pub fn located(findings: &[Value], rule: &str) -> Vec<(u64, u64, String)> {
    findings
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn message<'a>(findings: &'a [Value], rule: &str) -> &'a str {
    findings.iter().find(|f| f["rule"] == rule).unwrap()["message"]
        .as_str()
        .unwrap()
}

fn sql(text: &str) -> (i32, Vec<Value>) {
    let (code, f, _) = run(&[("m.sql", text)]);
    (code, f)
}

fn err(line: u64, column: u64) -> Vec<(u64, u64, String)> {
    vec![(line, column, "error".to_string())]
}

#[test]
fn an_unterminated_block_comment_is_an_error_where_it_opens() {
    let (code, f) = sql("SELECT 1;\n  /* oops\nCREATE INDEX i ON t (a);\n");
    assert_eq!(located(&f, "PC009"), err(2, 3));
    assert!(message(&f, "PC009").contains("unterminated comment"));
    assert_eq!(code, 1);
}

#[test]
fn an_unbalanced_nested_comment_is_an_error() {
    let (code, f) = sql("SELECT 1;\n/* a /* b */\nCREATE INDEX i ON t (a);\n");
    assert_eq!(located(&f, "PC009"), err(2, 1));
    assert_eq!(code, 1);
}

#[test]
fn unterminated_strings_and_dollar_quotes_are_errors() {
    for (text, at) in [
        (
            "SELECT 1;\nUPDATE t SET a = 'x;\nCREATE INDEX i ON t (a);\n",
            (2, 18),
        ),
        (
            "SELECT 1;\nDO $b$ BEGIN;\nCREATE INDEX i ON t (a);\n",
            (2, 4),
        ),
        ("SELECT 1;\nSELECT \"a;\nCREATE INDEX i ON t (a);\n", (2, 8)),
    ] {
        let (code, f) = sql(text);
        assert_eq!(located(&f, "PC009"), err(at.0, at.1), "{text}");
        assert_eq!(code, 1, "{text}");
    }
}

#[test]
fn an_unterminated_begin_atomic_is_an_error_at_begin() {
    let (code, f) = sql(
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql\n  BEGIN ATOMIC SELECT 1;\nCREATE INDEX i ON t (a);\n",
    );
    assert_eq!(located(&f, "PC009"), err(2, 3));
    assert!(message(&f, "PC009").contains("BEGIN ATOMIC"));
    assert_eq!(code, 1);
}

#[test]
fn begin_atomic_column_names_do_not_glue_the_file() {
    let (code, f) = sql("CREATE INDEX i ON t (begin, atomic);\nCREATE INDEX j ON t (b);\n");
    assert!(located(&f, "PC009").is_empty(), "{f:?}");
    let mg: Vec<u64> = located(&f, "MG001").iter().map(|l| l.0).collect();
    assert_eq!(mg, vec![1, 2], "both indexes are statements of their own");
    assert_eq!(code, 1, "MG001 on a table of unknown size fails closed");
}

#[test]
fn a_template_block_does_not_hide_the_statement_inside() {
    let (_, f) = sql("SELECT 1;\n{% if prod %}\nCREATE INDEX i ON t (a);\n{% endif %}\n");
    assert_eq!(located(&f, "MG001"), vec![(3, 1, "error".to_string())]);
    assert!(located(&f, "PC009").is_empty(), "{f:?}");
}

#[test]
fn a_template_tag_inside_a_statement_is_classified_without_it() {
    let (_, f) = sql("ALTER TABLE t {% if x %}ADD{% endif %} c int;\nCREATE INDEX i ON t (a);\n");
    let mg030 = f
        .iter()
        .find(|f| f["rule"] == "MG030")
        .expect("locks counted");
    assert_eq!(mg030["statement"]["kind"], "ALTER TABLE", "{f:?}");
    assert!(mg030["message"].as_str().unwrap().contains("2 statements"));
    assert_eq!(located(&f, "MG001"), vec![(2, 1, "error".to_string())]);
}

#[test]
fn copy_data_with_a_quote_does_not_swallow_statements() {
    let (_, f) = sql("COPY t (a) FROM stdin;\nit's\n\\.\nCREATE INDEX i ON t (a);\n");
    assert!(located(&f, "PC009").is_empty(), "{f:?}");
    assert_eq!(located(&f, "MG001"), vec![(4, 1, "error".to_string())]);
}

#[test]
fn copy_data_without_its_end_marker_is_an_error() {
    let (code, f) = sql("SELECT 1;\nCOPY t (a) FROM STDIN;\nit's\nCREATE INDEX i ON t (a);\n");
    assert_eq!(located(&f, "PC009"), err(2, 1));
    assert!(message(&f, "PC009").contains("\\."));
    assert_eq!(code, 1);
}

#[test]
fn a_suppression_inside_a_string_literal_is_not_honoured() {
    let (_, f) = sql(
        "INSERT INTO t VALUES ('\n-- platcheck-ignore MG001: not a comment\n');\nCREATE INDEX i ON t (a);\n",
    );
    assert_eq!(located(&f, "MG001"), vec![(4, 1, "error".to_string())]);
}

#[test]
fn an_integer_above_i64_is_pc004_not_undeclared() {
    for big in [
        "9223372036854775808",
        "99999999999999999999999999999999999999999999",
    ] {
        let d = tempfile::tempdir().unwrap();
        common::copy_tree(&common::root().join("examples/clean"), d.path(), None);
        let p = d.path().join("contracts/clusters/orders-db.yaml");
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains("\n    max: 800\n"));
        std::fs::write(
            &p,
            text.replace("\n    max: 800\n", &format!("\n    max: {big}\n")),
        )
        .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(["check", "--format", "json"])
            .current_dir(d.path())
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
        let f = doc["findings"].as_array().unwrap();
        let rules: Vec<&str> = f.iter().map(|f| f["rule"].as_str().unwrap()).collect();
        assert_eq!(rules, ["PC004"], "{big}: {f:?}");
        let line = text.lines().position(|l| l == "    max: 800").unwrap() as u64 + 1;
        assert_eq!(located(f, "PC004"), err(line, 10), "{big}");
        assert!(message(f, "PC004").contains(big), "{big}");
        assert_eq!(o.status.code(), Some(1), "{big}");
    }
}

#[test]
fn an_unclosed_fence_before_the_gate_section_still_gates_the_document() {
    let doc = "# Cache Policy (Python)\n\n## Invalidation\n\n```python\nInvalidate on change.\n\nUse asyncio here.\n\n## Python-specific implementation patterns\n\n### Mirrored-section grep gate\n\n- **Runtime / concurrency mechanic names** — `\\basyncio\\b`.\n\nRun:\n\n```\nawk '/^## Python-specific implementation patterns/{exit} 1' x.md | grep -nE '(\\basyncio\\b)'\n```\n";
    let (code, f, summary) = run(&[("docs/x.md", doc)]);
    assert_eq!(located(&f, "MR003"), err(5, 1), "{f:?}");
    assert!(message(&f, "MR003").contains("never closed"));
    assert_eq!(
        located(&f, "MR001"),
        err(8, 5),
        "the gate is applied: {f:?}"
    );
    assert_eq!(summary["files"], 1);
    assert_eq!(code, 1);
}

#[test]
fn a_glob_longer_than_any_path_is_a_located_pc008() {
    let cfg = format!(
        "version: 1\ntoday: 2026-11-30\ninclude: [\"*.sql\", \"{}\"]\n",
        "a".repeat(100_000)
    );
    let (code, f, summary) = run(&[("platcheck.yaml", &cfg), ("m.sql", "SELECT 1;\n")]);
    assert_eq!(located(&f, "PC008"), err(3, 20), "{f:?}");
    assert!(message(&f, "PC008").contains("100000 bytes"));
    assert_eq!(summary["files"], 1, "the other glob still applies");
    assert_eq!(code, 1);
}
