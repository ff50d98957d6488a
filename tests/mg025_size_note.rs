//! MG025 says when a table's size is not declared, as the other locking
//! rules do (`rules/mg/common.rs` `BySize`): an undeclared table is gated
//! (the gate fails closed) but must not read like a measured hot one.
use platcheck::RuleId;
use platcheck::finding::{Finding, Severity};

fn mg025(sql: Option<&str>) -> Vec<Finding> {
    let dir = tempfile::tempdir().unwrap();
    let w = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let mut config = "version: 1\ntoday: 2026-11-30\nrules:\n  MG030: off\n".to_string();
    if let Some(spec) = sql {
        config.push_str(&format!("sql:\n{spec}"));
    }
    w("platcheck.yaml", &config);
    w(
        "migrations/shop/0001_create.sql",
        "CREATE TABLE orders (id bigint PRIMARY KEY, status text);\n",
    );
    w(
        "migrations/shop/0002_default.sql",
        "ALTER TABLE orders ALTER COLUMN status SET DEFAULT 'new';\n",
    );
    let outcome = platcheck::engine::run(
        &[dir.path().to_path_buf()],
        dir.path(),
        &platcheck::settings::Overrides::default(),
    )
    .unwrap();
    outcome
        .findings
        .into_iter()
        .filter(|f| f.rule == RuleId::MG025)
        .collect()
}

#[test]
fn an_undeclared_table_gets_the_size_note_and_stays_a_warning() {
    let found = mg025(None);
    assert_eq!(found.len(), 1, "{found:#?}");
    let f = &found[0];
    assert_eq!(f.severity, Severity::Warning, "{}", f.message);
    assert!(
        f.message.contains("(size of orders not declared, so counted as large: declare it in a Cluster's `migrations.table_rows`/`hot_tables`, or set `sql.unknown_table_size: small`)"),
        "{}",
        f.message
    );
    assert_eq!(f.line, 1);
    assert!(f.file.ends_with("0002_default.sql"), "{}", f.file);
}

#[test]
fn unknown_table_size_small_opts_out() {
    // The declared-hot case, without the note, is the rule's bad fixture
    // (tests/snapshots/rules__MG025_bad.snap).
    let found = mg025(Some("  unknown_table_size: small\n"));
    assert!(found.is_empty(), "{found:#?}");
}
