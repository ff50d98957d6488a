//! Migration SQL in the shapes real repositories contain, and bad input:
//! each gives located findings or a clean result, never a panic or a hang.
mod common;
use platcheck::engine::Outcome;
use platcheck::{Finding, RuleId};
use std::path::Path;

fn run_dir(files: &[(&str, &[u8])]) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }
    let out = common::check(&[dir.path()]);
    drop(dir);
    out
}

fn sql(text: &str) -> Outcome {
    run_dir(&[("m.sql", text.as_bytes())])
}

fn of(out: &Outcome, rule: RuleId) -> Vec<&Finding> {
    out.findings.iter().filter(|f| f.rule == rule).collect()
}

#[test]
fn unparseable_statement_in_the_middle_keeps_the_rest() {
    let out = sql("SELECT 1;\nALTER TABEL orders ADD x int;\nCREATE INDEX i ON orders (a);\n");
    let pc = of(&out, RuleId::PC009);
    assert_eq!(pc.len(), 1);
    assert_eq!((pc[0].line, pc[0].column), (2, 7));
    let mg = of(&out, RuleId::MG001);
    assert_eq!(mg.len(), 1);
    assert_eq!((mg[0].line, mg[0].column), (3, 1));
}

#[test]
fn unterminated_string_is_located() {
    let out = sql("CREATE INDEX i ON orders (a);\nUPDATE t SET x = 'oops;\nSELECT 1;\n");
    let pc = of(&out, RuleId::PC009);
    assert_eq!(pc.len(), 1, "{:?}", out.findings);
    assert_eq!((pc[0].line, pc[0].column), (2, 18));
    assert!(pc[0].message.contains("unterminated string"));
    assert_eq!(of(&out, RuleId::MG001).len(), 1);
}

#[test]
fn unterminated_dollar_quote_is_located() {
    let out = sql("SELECT 1;\nDO $body$ BEGIN PERFORM 1; END;\n");
    let pc = of(&out, RuleId::PC009);
    assert_eq!(pc.len(), 1);
    assert_eq!((pc[0].line, pc[0].column), (2, 4));
    assert!(pc[0].message.contains("dollar-quoted"));
}

#[test]
fn nul_bytes_do_not_stop_analysis() {
    let out = sql("SELECT 1;\n\0\0\0;\nCREATE INDEX i ON orders (a);\n");
    assert_eq!(of(&out, RuleId::PC009).len(), 1);
    assert_eq!(of(&out, RuleId::MG001).len(), 1);
}

#[test]
fn invalid_utf8_is_a_located_pc001() {
    let out = run_dir(&[("m.sql", b"SELECT 1;\n\xff\xfe ALTER TABLE x;\n")]);
    let pc = of(&out, RuleId::PC001);
    assert_eq!(pc.len(), 1);
    assert_eq!((pc[0].line, pc[0].column), (1, 1));
    assert!(pc[0].message.contains("UTF-8"));
}

#[test]
fn only_comments_is_clean() {
    let out = sql("-- nothing here; really\n/* nor; /* here */ */\n");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(out.summary.files, 1);
}

#[test]
fn crlf_positions_match_lf() {
    let lf = sql("SELECT 1;\n  CREATE INDEX i ON orders (a);\n");
    let crlf = sql("SELECT 1;\r\n  CREATE INDEX i ON orders (a);\r\n");
    let a = of(&lf, RuleId::MG001);
    let b = of(&crlf, RuleId::MG001);
    assert_eq!((a[0].line, a[0].column), (2, 3));
    assert_eq!((b[0].line, b[0].column), (2, 3));
    assert_eq!(a[0].end_column, b[0].end_column);
}

#[test]
fn huge_single_statement_with_raised_size_limit() {
    let mut stmt = String::from("INSERT INTO audit_log (id, note) VALUES ");
    let row = "(1, 'some text; with a semicolon'),";
    while stmt.len() < 20 * 1024 * 1024 {
        stmt.push_str(row);
    }
    stmt.push_str("(2, 'end');\nCREATE INDEX i ON orders (a);\n");
    let cfg = "version: 1\nmax_file_size: 64MiB\n";
    let started = std::time::Instant::now();
    let out = run_dir(&[
        ("platcheck.yaml", cfg.as_bytes()),
        ("m.sql", stmt.as_bytes()),
    ]);
    assert!(
        started.elapsed().as_secs() < 120,
        "took {:?}",
        started.elapsed()
    );
    assert!(of(&out, RuleId::PC001).is_empty(), "{:?}", out.findings);
    assert!(of(&out, RuleId::PC009).is_empty(), "{:?}", out.findings);
    assert_eq!(of(&out, RuleId::MG001).len(), 1);
}

#[test]
fn oversized_file_is_pc001_by_default() {
    let big = "SELECT 1;\n".repeat(1_100_000);
    let out = sql(&big);
    assert_eq!(of(&out, RuleId::PC001).len(), 1);
}

#[test]
fn templated_migrations_parse() {
    let out = sql(
        "ALTER TABLE ${schema}.orders ADD COLUMN note text DEFAULT :default_note;\n\
         CREATE INDEX {{ index_name }} ON {{ table }} (a);\n",
    );
    assert!(of(&out, RuleId::PC009).is_empty(), "{:?}", out.findings);
    assert_eq!(of(&out, RuleId::MG001).len(), 1);
}

#[test]
fn default_zero_is_a_rewrite_only_before_pg11() {
    let stmt = "ALTER TABLE orders ADD COLUMN retries integer DEFAULT 0;\n";
    let pg10 = run_dir(&[
        ("platcheck.yaml", b"version: 1\nsql:\n  version: \"10\"\n"),
        ("m.sql", stmt.as_bytes()),
    ]);
    let pg15 = sql(stmt);
    assert_eq!(of(&pg10, RuleId::MG010).len(), 1);
    assert!(of(&pg15, RuleId::MG010).is_empty());
    let f = of(&pg10, RuleId::MG010)[0];
    assert!(f.sql.as_ref().unwrap().rewrite);
}

#[test]
fn suppression_silences_one_statement() {
    let out = sql("-- platcheck-ignore MG001: lookup table with 40 rows\n\
         CREATE INDEX i ON countries (code);\n\
         CREATE INDEX j ON orders (a);\n");
    let mg = of(&out, RuleId::MG001);
    assert_eq!(mg.len(), 1);
    assert_eq!(mg[0].line, 3);
    assert_eq!(out.summary.suppressed, 1);
    assert!(of(&out, RuleId::PC010).is_empty());
}

#[test]
fn json_carries_statement_locks_rewrite_scan() {
    let out = sql(
        "SELECT 1;\nALTER TABLE order_items ADD CONSTRAINT fk FOREIGN KEY (order_id) REFERENCES orders (id);\n",
    );
    let json: serde_json::Value = serde_json::from_str(&common::json(&out)).unwrap();
    let f = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "MG015")
        .unwrap();
    assert_eq!(f["line"], 2);
    assert_eq!(f["column"], 1);
    assert_eq!(f["statement"]["index"], 2);
    assert_eq!(f["statement"]["kind"], "ALTER TABLE");
    assert_eq!(f["scan"], true);
    assert_eq!(f["rewrite"], false);
    let locks = f["locks"].as_array().unwrap();
    assert_eq!(locks.len(), 2, "both tables: {locks:?}");
    assert!(locks.iter().all(|l| l["mode"] == "SHARE ROW EXCLUSIVE"));
}

#[test]
fn assumed_transaction_and_opt_out() {
    let cfg = b"version: 1\nsql:\n  assume_in_transaction: true\n";
    let wrapped = run_dir(&[
        ("platcheck.yaml", cfg),
        ("m.sql", b"CREATE INDEX CONCURRENTLY i ON orders (a);\n"),
    ]);
    assert_eq!(of(&wrapped, RuleId::MG003).len(), 1);
    // Flyway reads its opt-out from the script configuration file beside
    // the migration, not from words in a comment.
    let cic = b"CREATE INDEX CONCURRENTLY i ON orders (a);\n" as &[u8];
    let opted_out = run_dir(&[
        ("platcheck.yaml", cfg),
        ("V2__idx.sql", cic),
        ("V2__idx.sql.conf", b"executeInTransaction=false\n"),
    ]);
    assert!(of(&opted_out, RuleId::MG003).is_empty());
    let prose = run_dir(&[
        ("platcheck.yaml", cfg),
        (
            "V2__idx.sql",
            b"-- flyway:executeInTransaction=false\nCREATE INDEX CONCURRENTLY i ON orders (a);\n",
        ),
    ]);
    assert_eq!(of(&prose, RuleId::MG003).len(), 1);
}

#[test]
fn clean_example_has_no_findings() {
    let clean = common::check(&[Path::new("examples/clean")]);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
}

#[test]
fn violations_example_raises_every_mg_rule() {
    let out = common::check(&[Path::new("examples/violations")]);
    let missing: Vec<&str> = RuleId::ALL
        .iter()
        .filter(|r| r.as_str().starts_with("MG") || **r == RuleId::PC009)
        .filter(|r| !out.findings.iter().any(|f| f.rule == **r))
        .map(|r| r.as_str())
        .collect();
    assert!(missing.is_empty(), "not raised: {missing:?}");
    // Lock facts name the referenced table too (MG015 on order_items → orders).
    let fk = out
        .findings
        .iter()
        .find(|f| f.rule == RuleId::MG015)
        .unwrap();
    let locks = &fk.sql.as_ref().unwrap().locks;
    assert!(locks.iter().any(|l| l.relation == "orders"), "{locks:?}");
}
