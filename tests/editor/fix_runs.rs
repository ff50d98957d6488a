//! A script whose work ends in several index builds (lemmy's
//! `2020-01-11-012452_add_indexes`: twelve `CREATE INDEX`): every statement
//! of that run gets the same fix, so one pass fixes them all, in their
//! order. One at a time, each pass moved the last one into a new version
//! (one new migration per directory and pass), which reversed them and
//! left `platcheck fix` still busy after its 8 passes on lemmy.
use super::{PG, bin, findings};
use std::collections::BTreeMap;

const BASE_TABLES: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\n";
const INDEXES: &str = "-- Indexes for the joins.\nCREATE INDEX idx_a ON orders (customer_id);\n\nCREATE INDEX idx_b ON orders (public_id);\n\nCREATE INDEX idx_c ON customers (id);\n";

fn write(dir: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn by_rule(m: BTreeMap<(String, String), usize>) -> BTreeMap<String, usize> {
    let mut by = BTreeMap::new();
    for ((r, _), n) in m {
        *by.entry(r).or_default() += n;
    }
    by
}

/// diesel runs `run_in_transaction = false` as one `batch_execute`, one
/// query PostgreSQL runs in one implicit transaction, which CONCURRENTLY
/// refuses: the first build keeps the file (no SET), each other build gets
/// a directory of its own, in the script's order, all in one fix run.
#[test]
fn diesel_index_run_moves_in_one_pass_in_order_one_statement_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        &[
            ("platcheck.yaml", PG),
            ("migrations/2026-01-01-000000_base/up.sql", BASE_TABLES),
            ("migrations/2026-01-02-000000_idx/up.sql", INDEXES),
        ],
    );
    let before = by_rule(findings(dir));
    assert_eq!(before.get("MG001"), Some(&3), "{before:?}");
    let (rc, d, err) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!(rc, 1, "{err}");
    assert!(!err.contains("passes"), "one pass suffices: {err}");
    let (_, out, _) = bin(dir, &["fix", "."]);
    assert!(out.starts_with("platcheck fix: applied 3 fixes"), "{out}");
    let read = |p: &str| std::fs::read_to_string(dir.join("migrations").join(p)).unwrap();
    let first = read("2026-01-02-000000_idx/up.sql");
    assert!(
        first.contains("CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_a"),
        "{first}"
    );
    assert!(
        !first.contains("idx_b") && !first.lines().any(|l| l.starts_with("SET ")),
        "{first}"
    );
    assert!(first.starts_with("-- Indexes for the joins.\n"), "{first}");
    assert_eq!(
        read("2026-01-02-000000_idx/metadata.toml"),
        "run_in_transaction = false\n"
    );
    for (dir_name, index) in [
        ("2026-01-02-000001_index_idx_b", "idx_b"),
        ("2026-01-02-000002_index_idx_c", "idx_c"),
    ] {
        let up = read(&format!("{dir_name}/up.sql"));
        let work: Vec<&str> = up.lines().filter(|l| !l.starts_with("--")).collect();
        assert_eq!(
            work,
            [format!(
                "CREATE INDEX CONCURRENTLY IF NOT EXISTS {index} ON {}",
                if index == "idx_b" {
                    "orders (public_id);"
                } else {
                    "customers (id);"
                }
            )],
            "{up}"
        );
        assert_eq!(
            read(&format!("{dir_name}/metadata.toml")),
            "run_in_transaction = false\n"
        );
    }
    let after = by_rule(findings(dir));
    assert!(!after.contains_key("MG001"), "{after:?}");
    for (r, n) in &after {
        // MG031: no SET statement_timeout can stand beside the statement
        // (the note in each file says where the bound goes instead).
        assert!(
            r == "MG031" || before.get(r).is_some_and(|b| b >= n),
            "{r} more often: {after:?}"
        );
    }
    let (rc, again, _) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    insta::assert_snapshot!(d);
}

/// A tool that runs a file outside its transaction statement by statement
/// (goose): the whole run is rewritten in place under one opt-out.
#[test]
fn goose_index_run_stays_in_place_under_one_opt_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/00001_base.sql",
                &format!("-- +goose Up\n{BASE_TABLES}"),
            ),
            (
                "migrations/00002_idx.sql",
                &format!(
                    "-- +goose Up\nSET lock_timeout = '2s';\nSET statement_timeout = '15min';\n{INDEXES}"
                ),
            ),
        ],
    );
    let before = by_rule(findings(dir));
    assert_eq!(before.get("MG001"), Some(&3), "{before:?}");
    let (rc, d, err) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!(rc, 1, "{err}");
    bin(dir, &["fix", "."]);
    let names: Vec<String> = std::fs::read_dir(dir.join("migrations"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no new migration: {names:?}");
    let after = by_rule(findings(dir));
    assert!(!after.contains_key("MG001"), "{after:?}");
    for (r, n) in &after {
        assert!(before.get(r).is_some_and(|b| b >= n), "{r}: {after:?}");
    }
    let (rc, again, _) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    insta::assert_snapshot!(d);
}

/// The index run after other work moves to one migration of its own, in
/// order (goose runs it statement by statement outside a transaction).
#[test]
fn goose_index_run_after_work_moves_together() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/00001_base.sql",
                &format!("-- +goose Up\n{BASE_TABLES}"),
            ),
            (
                "migrations/00002_idx.sql",
                &format!(
                    "-- +goose Up\nSET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE customers ADD COLUMN note text;\n{INDEXES}"
                ),
            ),
        ],
    );
    let before = by_rule(findings(dir));
    let (rc, d, err) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!(rc, 1, "{err}");
    bin(dir, &["fix", "."]);
    let moved = std::fs::read_to_string(dir.join("migrations/00003_index_idx_a.sql")).unwrap();
    let (a, b, c) = (
        moved.find("idx_a").unwrap(),
        moved.find("idx_b").unwrap(),
        moved.find("idx_c").unwrap(),
    );
    assert!(a < b && b < c, "in the script's order: {moved}");
    assert!(moved.starts_with("-- +goose NO TRANSACTION\n"), "{moved}");
    let after = by_rule(findings(dir));
    assert!(!after.contains_key("MG001"), "{after:?}");
    for (r, n) in &after {
        assert!(before.get(r).is_some_and(|b| b >= n), "{r}: {after:?}");
    }
    let (rc, again, _) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    insta::assert_snapshot!(d);
}

/// After the fix, a diesel or dbmate file run without a transaction holds
/// one CONCURRENTLY build and no SET: MG031 (a notice) says why the file
/// cannot bound it, in what the tool does, not golang-migrate's words.
#[test]
fn mg031_says_what_diesel_and_dbmate_do_with_a_file_outside_a_transaction() {
    let cases: [(&[(&str, &str)], &str); 2] = [
        (
            &[
                ("migrations/2026-01-01-000000_base/up.sql", BASE_TABLES),
                (
                    "migrations/2026-01-02-000000_idx/up.sql",
                    "CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_a ON orders (customer_id);\n",
                ),
                (
                    "migrations/2026-01-02-000000_idx/metadata.toml",
                    "run_in_transaction = false\n",
                ),
            ],
            "diesel runs a migration with run_in_transaction = false as one batch_execute",
        ),
        (
            &[
                (
                    "db/migrations/20260101000000_base.sql",
                    "-- migrate:up\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint);\n",
                ),
                (
                    "db/migrations/20260102000000_idx.sql",
                    "-- migrate:up transaction:false\nCREATE INDEX CONCURRENTLY IF NOT EXISTS idx_a ON orders (customer_id);\n\n-- migrate:down\nDROP INDEX idx_a;\n",
                ),
            ],
            "dbmate runs a transaction:false migration as one Exec of the whole file",
        ),
    ];
    for (files, words) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        write(dir, &[("platcheck.yaml", PG)]);
        write(dir, files);
        let (_, out, err) = bin(dir, &["check", "."]);
        assert!(out.contains("[MG031]"), "{out}{err}");
        assert!(out.contains(words), "{out}");
        assert!(!out.contains("golang-migrate sends it"), "{out}");
    }
}
