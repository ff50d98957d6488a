//! The transaction opt-out or follow-up migration of every tool whose
//! syntax platcheck reads: golang-migrate and popx (a file of its own, popx's
//! `.autocommit` name), diesel (`metadata.toml`, a next directory); sqitch
//! and Liquibase in `plans`. Alembic, Django and Rails opt out in Python or
//! Ruby, which platcheck does not read: no fix is offered there.
use super::{PG, bin, findings, fixed};
use std::collections::BTreeMap;
use std::path::Path;

#[path = "fix_tools_plans.rs"]
mod plans;

const BASE_TABLES: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\n";
const TIMEOUTS: &str = "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\n";
/// Index, foreign key and unique constraint after other work: each moves.
const BUSY: &str = "ALTER TABLE customers ADD COLUMN note text;\nCREATE INDEX idx_c ON orders (customer_id);\nALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id);\nALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\n";

/// As `fixed`, for golang-migrate, where a statement that must run
/// outside a transaction gets a file with that one statement: a `SET` would
/// make the file a transaction. No rule is flagged more often than before
/// but `may_move`: the statement timeout the old file set (MG031, a
/// notice) cannot follow it; the server's default or the DSN's applies.
pub(super) fn fixed_by_rule(files: &[(&str, &str)], rule: &str, may_move: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_files(dir, files);
    let count = |m: BTreeMap<(String, String), usize>| {
        let mut by: BTreeMap<String, usize> = BTreeMap::new();
        for ((r, _), n) in m {
            *by.entry(r).or_default() += n;
        }
        by
    };
    let before = count(findings(dir));
    assert!(before.contains_key(rule), "{rule} not flagged: {before:?}");
    let (rc, diff, err) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(rc, 1, "{err}");
    bin(dir, &["fix", "--unsafe-fixes", "."]);
    let after = count(findings(dir));
    assert!(!after.contains_key(rule), "{rule} still flagged: {after:?}");
    for (r, n) in &after {
        assert!(
            may_move.contains(&r.as_str()) || before.get(r).is_some_and(|b| b >= n),
            "{r} more often: {after:?}"
        );
    }
    let (rc, again, _) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    diff
}

/// golang-migrate sends a file as one query: the index alone in its file
/// keeps the file (and so its version and its down), and the file's SETs
/// go, which would make the query a transaction. Moving the index out
/// instead left a version holding SETs only, a migration doing nothing.
#[test]
fn golang_migrate_index_alone_keeps_its_file_and_drops_its_sets() {
    let d = fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            ("migrations/000001_base.up.sql", BASE_TABLES),
            (
                "migrations/000001_base.down.sql",
                "DROP TABLE orders;\nDROP TABLE customers;\n",
            ),
            (
                "migrations/000002_idx.up.sql",
                &format!(
                    "-- The history page.\n{TIMEOUTS}CREATE INDEX idx_c ON orders (customer_id);\n"
                ),
            ),
            ("migrations/000002_idx.down.sql", "DROP INDEX idx_c;\n"),
        ],
        "MG001",
        &["MG031"],
    );
    assert_eq!(
        diff_files(&d),
        ["migrations/000002_idx.up.sql"],
        "no new version, the down stays paired: {d}"
    );
    assert!(
        d.contains(
            "+-- No SET statement_timeout (000002_idx.up.sql had `SET statement_timeout = '15min'`)"
        ),
        "the dropped bound is named: {d}"
    );
    assert!(d.contains("x-statement-timeout"), "{d}");
    assert!(d.contains(" -- The history page.\n"), "comments stay: {d}");
    insta::assert_snapshot!(d);
}

/// The index beside other work moves to the next version; the flagged file
/// keeps that work, so no version is left without any.
#[test]
fn golang_migrate_index_beside_work_gets_a_file_of_its_own() {
    let d = fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            ("migrations/000001_base.up.sql", BASE_TABLES),
            (
                "migrations/000002_idx.up.sql",
                &format!(
                    "{TIMEOUTS}ALTER TABLE customers ADD COLUMN note text;\nCREATE INDEX idx_c ON orders (customer_id);\n"
                ),
            ),
        ],
        "MG001",
        &["MG031"],
    );
    assert!(
        d.contains("+++ b/migrations/000003_index_idx_c.up.sql\n@@ -0,0 +1,5 @@\n+-- Follows 000002_idx.up.sql (written by `platcheck fix`).\n+-- No SET statement_timeout (000002_idx.up.sql had `SET statement_timeout = '15min'`)"),
        "one statement, no SET (that would make it a transaction), and says so: {d}"
    );
    assert!(
        d.contains(" ALTER TABLE customers ADD COLUMN note text;\n"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The files a unified diff writes (its `+++ b/` lines).
fn diff_files(diff: &str) -> Vec<&str> {
    diff.lines()
        .filter_map(|l| l.strip_prefix("+++ b/"))
        .collect()
}

#[test]
fn golang_migrate_unique_builds_and_attaches_in_two_files() {
    let d = fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            ("migrations/000001_base.up.sql", BASE_TABLES),
            (
                "migrations/000002_uq.up.sql",
                &format!(
                    "{TIMEOUTS}ALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\n"
                ),
            ),
        ],
        "MG017",
        &["MG031"],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn popx_index_moves_to_an_autocommit_file_with_its_down() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/20260101000000000000_base.postgres.up.sql",
                BASE_TABLES,
            ),
            ("migrations/20260101000000000000_base.postgres.down.sql", ""),
            (
                "migrations/20260102000000000000_idx.postgres.up.sql",
                &format!("{TIMEOUTS}{BUSY}"),
            ),
            ("migrations/20260102000000000000_idx.postgres.down.sql", ""),
        ],
        "MG001",
        &["--unsafe-fixes"],
    );
    assert!(
        d.contains("20260102000000000001_index_idx_c.postgres.autocommit.up.sql"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

#[test]
fn diesel_index_alone_gets_metadata_toml() {
    // diesel sends a file it runs outside a transaction as one query: the
    // SETs go (a note says where the bound goes), as for golang-migrate.
    let d = fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            ("migrations/2026-01-01-000000_base/up.sql", BASE_TABLES),
            (
                "migrations/2026-01-02-000000_idx/up.sql",
                &format!("{TIMEOUTS}CREATE INDEX idx_c ON orders (customer_id);\n"),
            ),
        ],
        "MG001",
        &["MG031"],
    );
    assert!(
        d.contains("-SET lock_timeout") && d.contains("diesel sends this file as one query"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

#[test]
fn diesel_busy_migration_gets_next_directories() {
    let d = fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            ("migrations/2026-01-01-000000_base/up.sql", BASE_TABLES),
            (
                "migrations/2026-01-02-000000_idx/up.sql",
                &format!("{TIMEOUTS}{BUSY}"),
            ),
        ],
        "MG017",
        &["MG031"],
    );
    // The unique build and its attach are two files: diesel runs the
    // build's (outside a transaction) as one query.
    for dir in [
        "2026-01-02-000001_index_idx_c/metadata.toml",
        "2026-01-02-000002_validate_orders_customer_id_fkey/up.sql",
        "2026-01-02-000003_index_orders_public_id_key/metadata.toml",
        "2026-01-02-000004_attach_orders_public_id_key/up.sql",
    ] {
        assert!(d.contains(dir), "{dir}: {d}");
    }
    insta::assert_snapshot!(d);
}

#[test]
fn alembic_sql_export_gets_no_fix_for_its_transaction() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(dir.join("platcheck.yaml"), format!("{PG}  tool: alembic\n")).unwrap();
    std::fs::write(dir.join("migrations/0001_base.sql"), BASE_TABLES).unwrap();
    std::fs::write(
        dir.join("migrations/0002_idx.sql"),
        format!("{TIMEOUTS}CREATE INDEX idx_c ON orders (customer_id);\n"),
    )
    .unwrap();
    let before = findings(dir);
    assert!(before.keys().any(|(r, _)| r == "MG001"), "{before:?}");
    // The opt-out is `with op.get_context().autocommit_block():` in the
    // Python migration: platcheck reads the SQL export only.
    let (rc, diff, err) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert!(!diff.contains("CONCURRENTLY"), "{diff}{err}");
    assert_eq!(rc, i32::from(!diff.is_empty()), "{err}");
}

#[test]
fn popx_file_for_every_dialect_is_left_to_a_person() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(dir.join("platcheck.yaml"), PG).unwrap();
    for (name, text) in [
        // The dialect names make the directory popx's (as in kratos).
        ("20260101000000000000_base.postgres.up.sql", BASE_TABLES),
        ("20260101000000000000_base.postgres.down.sql", ""),
        (
            "20260102000000000000_idx.up.sql",
            "CREATE INDEX idx_c ON orders (customer_id);\n",
        ),
        ("20260102000000000000_idx.down.sql", ""),
        (
            "20260102000000000000_idx.mysql.up.sql",
            "CREATE INDEX idx_c ON orders (customer_id);\n",
        ),
        ("20260102000000000000_idx.mysql.down.sql", ""),
    ] {
        std::fs::write(dir.join("migrations").join(name), text).unwrap();
    }
    let before = findings(dir);
    assert!(
        before.contains_key(&(
            "MG001".into(),
            "migrations/20260102000000000000_idx.up.sql".into()
        )),
        "{before:?}"
    );
    // Without a dialect the file also runs on SQLite and CockroachDB: no
    // CONCURRENTLY, no SET lock_timeout written there.
    let (rc, diff, err) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!((rc, diff.as_str()), (0, ""), "{err}");
}

/// MG031 on a golang-migrate file whose one statement refuses a transaction
/// (what the index fix writes): still reported, for the scan is as long,
/// but it asks for the database URL's bound, not a SET the file cannot hold.
#[test]
fn golang_migrate_single_concurrent_index_asks_for_the_url_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let files = [
        ("platcheck.yaml", PG),
        ("migrations/000001_base.up.sql", BASE_TABLES),
        (
            "migrations/000002_idx.up.sql",
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_c ON orders (customer_id);\n",
        ),
        (
            "migrations/000003_check.up.sql",
            "ALTER TABLE orders VALIDATE CONSTRAINT orders_cid;\n",
        ),
    ];
    write_files(dir, &files);
    let (_, out, err) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let mg031: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "MG031")
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(mg031.len(), 2, "{mg031:?}");
    // The index file cannot hold the SET; a VALIDATE can (one query is one
    // implicit transaction, which VALIDATE accepts): the usual message.
    assert!(mg031[0].0.ends_with("000002_idx.up.sql"), "{mg031:?}");
    assert!(
        mg031[0].1.contains("this file cannot hold a SET"),
        "{mg031:?}"
    );
    assert!(mg031[1].0.ends_with("000003_check.up.sql"), "{mg031:?}");
    assert!(!mg031[1].1.contains("cannot hold"), "{mg031:?}");
}
