//! Fail closed on unknown size: a blocking statement on an existing table
//! whose size nothing declares is an error; `unknown_table_size: small`
//! (config `sql.` or a Cluster's `migrations.`) opts out, and `hot_tables`
//! / `table_rows` refine it.
mod common;
use platcheck::RuleId;
use platcheck::finding::Severity;

fn run(config: &str, cluster: Option<&str>) -> Vec<(RuleId, Severity, String)> {
    run_with(
        config,
        cluster,
        "CREATE TABLE orders (id bigint PRIMARY KEY, status text);\n",
        "CREATE INDEX idx_orders_status ON orders (status);\n",
    )
}

/// The findings on the second migration, after `first` built the table.
fn run_with(
    config: &str,
    cluster: Option<&str>,
    first: &str,
    second: &str,
) -> Vec<(RuleId, Severity, String)> {
    let dir = tempfile::tempdir().unwrap();
    let w = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w("platcheck.yaml", config);
    w("migrations/shop/0001_create.sql", first);
    w("migrations/shop/0002_index.sql", second);
    if let Some(spec) = cluster {
        let base = std::fs::read_to_string(
            common::root().join("examples/clean/contracts/clusters/orders-db.yaml"),
        )
        .unwrap();
        // The example's migrations block, pointed at this tree and resized.
        let start = base.find("  migrations:\n").unwrap();
        let end = start + base[start..].find("  cost:\n").unwrap();
        let text = format!(
            "{}  migrations:\n    path: migrations/shop\n    tool: alembic\n    tool_version: \"1.13.3\"\n    registry: platform-migration-registry\n{spec}{}",
            &base[..start],
            &base[end..]
        );
        w("contracts/clusters/orders-db.yaml", &text);
    }
    let outcome = platcheck::engine::run(
        &[dir.path().join("migrations")],
        dir.path(),
        &platcheck::settings::Overrides::default(),
    )
    .unwrap();
    outcome
        .findings
        .iter()
        .filter(|f| f.file.ends_with("0002_index.sql"))
        .map(|f| (f.rule, f.severity, f.message.clone()))
        .collect()
}

fn mg001(findings: &[(RuleId, Severity, String)]) -> (Severity, String) {
    let (_, s, m) = findings
        .iter()
        .find(|(r, _, _)| *r == RuleId::MG001)
        .unwrap_or_else(|| panic!("no MG001 in {findings:?}"));
    (*s, m.clone())
}

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";

#[test]
fn an_undeclared_table_is_judged_as_large() {
    let (severity, message) = mg001(&run(CONFIG, None));
    assert_eq!(severity, Severity::Error);
    assert!(
        message.contains("CREATE INDEX on orders without"),
        "{message}"
    );
    // Not a measured large table: the message says the size is missing and
    // where to declare it.
    assert!(
        message.ends_with(
            "(size of orders not declared, so counted as large: declare it in a Cluster's \
             `migrations.table_rows`/`hot_tables`, or set `sql.unknown_table_size: small`)"
        ),
        "{message}"
    );
}

#[test]
fn a_cluster_without_the_size_names_itself_in_the_message() {
    let (severity, message) = mg001(&run(CONFIG, Some("    hot_tables: [customers]\n")));
    assert_eq!(severity, Severity::Error);
    assert!(
        message.ends_with(
            "(size of orders not declared, so counted as large: declare it in Cluster \
             orders-db's `migrations.table_rows`/`hot_tables`, or set \
             `migrations.unknown_table_size: small`)"
        ),
        "{message}"
    );
}

#[test]
fn the_config_can_declare_unknown_tables_small() {
    let config = format!("{CONFIG}sql:\n  unknown_table_size: small\n");
    let (severity, message) = mg001(&run(&config, None));
    assert_eq!(severity, Severity::Warning);
    assert!(!message.contains("not declared"), "{message}");
}

#[test]
fn a_cluster_declares_for_its_own_migrations_and_rows_refine() {
    let small = "    unknown_table_size: small\n";
    assert_eq!(mg001(&run(CONFIG, Some(small))).0, Severity::Warning);
    let rows = format!("{small}    table_rows: {{ orders: 50M }}\n");
    let (severity, message) = mg001(&run(CONFIG, Some(&rows)));
    assert_eq!(severity, Severity::Error);
    assert!(message.contains("50,000,000 rows"), "{message}");
    assert!(!message.contains("not declared"), "{message}");
    let hot = format!("{small}    hot_tables: [orders]\n");
    assert_eq!(mg001(&run(CONFIG, Some(&hot))).0, Severity::Error);
    // Declared small by its row count, whatever the default says.
    let few = "    table_rows: { orders: 20k }\n";
    assert_eq!(mg001(&run(CONFIG, Some(few))).0, Severity::Warning);
}

#[test]
fn a_misspelt_setting_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("platcheck.yaml"),
        format!("{CONFIG}sql:\n  unknown_table_size: smal\n"),
    )
    .unwrap();
    let outcome = platcheck::engine::run(
        &[dir.path().to_path_buf()],
        dir.path(),
        &platcheck::settings::Overrides::default(),
    )
    .unwrap();
    let f = outcome
        .findings
        .iter()
        .find(|f| f.rule == RuleId::PC008)
        .expect("PC008");
    assert!(f.message.contains("unknown_table_size"), "{}", f.message);
}

/// The rules a MySQL/PostgreSQL migration raises, with the config given.
fn rules_of(config: &str, sql: &str) -> Vec<(RuleId, usize)> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), config).unwrap();
    let m = dir.path().join("migrations");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(
        m.join("V1__create.sql"),
        "CREATE TABLE payments (id bigint PRIMARY KEY, amount int, created_at datetime);\n",
    )
    .unwrap();
    std::fs::write(m.join("V2__change.sql"), sql).unwrap();
    let outcome = platcheck::engine::run(
        std::slice::from_ref(&m),
        dir.path(),
        &platcheck::settings::Overrides::default(),
    )
    .unwrap();
    outcome
        .findings
        .iter()
        .filter(|f| f.file.ends_with("V2__change.sql"))
        .map(|f| (f.rule, f.line))
        .collect()
}

#[test]
fn one_statement_one_piece_of_advice() {
    let mysql = format!("{CONFIG}sql:\n  dialect: mysql\n  version: \"8.0.35\"\n");
    // A rebuild that blocks nothing does not fail closed on an unsized table.
    let found = rules_of(
        &mysql,
        "SET SESSION lock_wait_timeout = 5;\nOPTIMIZE TABLE payments;\n",
    );
    assert!(!found.iter().any(|(r, _)| *r == RuleId::MG102), "{found:?}");
    // An explicit COPY is MG100's, a copy-only change MG101's: no guard advice.
    let found = rules_of(
        &mysql,
        "SET SESSION lock_wait_timeout = 5;\nALTER TABLE payments ADD COLUMN note text, ALGORITHM=COPY;\nALTER TABLE payments MODIFY amount bigint NOT NULL;\nALTER TABLE payments ADD INDEX idx_created (created_at);\n",
    );
    assert!(found.contains(&(RuleId::MG100, 2)), "{found:?}");
    assert!(found.contains(&(RuleId::MG101, 3)), "{found:?}");
    let guards: Vec<usize> = found
        .iter()
        .filter(|(r, _)| *r == RuleId::MG103)
        .map(|(_, l)| *l)
        .collect();
    assert_eq!(guards, [4], "{found:?}");
    // A brief lock: MG030's one fix covers it; MG025 speaks where MG030 is off.
    let sql = "ALTER TABLE payments ALTER COLUMN amount SET DEFAULT 0;\n";
    let found = rules_of(CONFIG, sql);
    assert!(found.iter().any(|(r, _)| *r == RuleId::MG030), "{found:?}");
    assert!(!found.iter().any(|(r, _)| *r == RuleId::MG025), "{found:?}");
    let found = rules_of(&format!("{CONFIG}rules:\n  MG030: off\n"), sql);
    assert!(found.contains(&(RuleId::MG025, 1)), "{found:?}");
}

#[test]
fn the_indexes_a_statement_locks_are_sized_by_their_table() {
    // DROP COLUMN takes ACCESS EXCLUSIVE on the table and on the indexes
    // that go with the column; the indexes have no size of their own, so a
    // table declared small keeps MG032 a warning and names no index.
    let few = "    table_rows: { orders: 20k }\n";
    let findings = run_with(
        CONFIG,
        Some(few),
        "CREATE TABLE orders (id bigint PRIMARY KEY, status text);\nCREATE INDEX idx_orders_status ON orders (status);\n",
        "BEGIN;\nALTER TABLE orders DROP COLUMN status;\nUPDATE orders SET id = id;\nCOMMIT;\n",
    );
    let (_, severity, message) = findings
        .iter()
        .find(|(r, _, _)| *r == RuleId::MG032)
        .unwrap_or_else(|| panic!("no MG032 in {findings:?}"));
    assert!(message.contains("idx_orders_status"), "{message}");
    assert_eq!(*severity, Severity::Warning, "{message}");
    assert!(!message.contains("not declared"), "{message}");
}
