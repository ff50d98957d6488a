//! `platcheck fix --verify` on the local PostgreSQL (or a throwaway one):
//! every SQL fix, replayed after its history with fixture rows, holds no
//! lock that blocks writes while rows are read; and the proof has teeth:
//! the unfixed statements fail it. Fails loudly without a server;
//! PLATCHECK_DB_TESTS=0 skips with a printed reason.
#[path = "verify_oracle/servers.rs"]
mod servers;
use platcheck::fix::proof::{self, Plan, PlanFile, PlanStmt};
use std::process::Command;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"15\"\n";
const BASE: &str = "CREATE TABLE customers (id bigint PRIMARY KEY);\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\n";

fn prove(files: &[(&str, &str)], flags: &[&str]) -> String {
    let Some(url) = servers::postgres_url() else {
        return String::new();
    };
    let tmp = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = tmp.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .arg("fix")
        .args(flags)
        .args(["--verify", "--verify-url", &url, "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    assert!(
        text.contains("no lock that blocks writes was held while rows were read"),
        "{text}"
    );
    assert!(!text.contains("FAIL"), "{text}");
    text
}

#[test]
fn mg001_concurrent_index_runs_outside_the_transaction() {
    let t = prove(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__idx.sql",
                "CREATE INDEX idx_c ON orders (customer_id);\n",
            ),
        ],
        &[],
    );
    if !t.is_empty() {
        assert!(t.contains("V2__idx.sql:2 CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_c ON orders (customer_id): ran outside a transaction"), "{t}");
        // Watched from another session while it built: the table lock it
        // took is SHARE UPDATE EXCLUSIVE, which lets writes through.
        assert!(
            t.contains("held SHARE UPDATE EXCLUSIVE on orders while it ran"),
            "{t}"
        );
    }
}

#[test]
fn mg001_goose_and_mg002_drop_index() {
    let t = prove(
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/00001_base.sql",
                &format!("-- +goose Up\n{BASE}CREATE INDEX idx_old ON orders (public_id);\n"),
            ),
            (
                "migrations/00002_idx.sql",
                "-- +goose Up\nCREATE INDEX idx_c ON orders (customer_id);\n",
            ),
            (
                "migrations/00003_drop.sql",
                "-- +goose Up\nDROP INDEX idx_old;\n",
            ),
        ],
        &[],
    );
    if !t.is_empty() {
        assert!(
            t.contains("DROP INDEX CONCURRENTLY IF EXISTS idx_old: ran outside a transaction"),
            "{t}"
        );
    }
}

#[test]
fn mg013_set_not_null_is_catalog_only_after_the_validated_check() {
    let t = prove(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__nn.sql",
                "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;\n",
            ),
        ],
        &[],
    );
    if !t.is_empty() {
        assert!(t.contains("ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL: holds ACCESS EXCLUSIVE on orders, read no rows (catalog only)"), "{t}");
        assert!(t.contains("VALIDATE CONSTRAINT orders_customer_id_not_null: read 1000 rows of orders holding no lock that blocks writes"), "{t}");
    }
}

#[test]
fn mg015_foreign_key_validated_without_blocking_writes() {
    let t = prove(
        &[
            ("platcheck.yaml", PG),
            ("migrations/000001_base.up.sql", BASE),
            (
                "migrations/000002_fk.up.sql",
                "ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id);\n",
            ),
        ],
        &[],
    );
    if !t.is_empty() {
        assert!(
            t.contains("VALIDATE CONSTRAINT orders_customer_id_fkey: read"),
            "{t}"
        );
    }
}

#[test]
fn mg017_unique_through_a_concurrent_index_in_place_and_moved() {
    let t = prove(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__uq.sql",
                "ALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\n",
            ),
            (
                "migrations/V3__two.sql",
                "ALTER TABLE customers ADD COLUMN note text;\nALTER TABLE customers ADD CONSTRAINT customers_note_key UNIQUE (note);\n",
            ),
        ],
        &["--unsafe-fixes"],
    );
    if !t.is_empty() {
        assert!(t.contains("orders_public_id_key UNIQUE USING...: holds ACCESS EXCLUSIVE on orders, read no rows (catalog only)"), "{t}");
        assert!(
            t.contains("V3_1__"),
            "the second one moved to its own migration: {t}"
        );
    }
}

fn stmt(text: &str, in_tx: bool) -> PlanStmt {
    PlanStmt {
        line: 1,
        text: text.into(),
        in_tx,
        outside_only: false,
    }
}

#[test]
fn the_proof_fails_the_unfixed_statements() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    for (sql, held) in [
        (
            "CREATE INDEX idx_c ON orders (customer_id)",
            "SHARE on orders",
        ),
        (
            "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL",
            "ACCESS EXCLUSIVE on orders",
        ),
        (
            "ALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id)",
            "ACCESS EXCLUSIVE on orders",
        ),
        (
            "ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id)",
            "SHARE ROW EXCLUSIVE on customers",
        ),
    ] {
        let plan = Plan {
            histories: vec![vec![
                PlanFile {
                    name: "V1__base.sql".into(),
                    stmts: vec![stmt(BASE, false)],
                    judged: false,
                },
                PlanFile {
                    name: "V2__bad.sql".into(),
                    stmts: vec![stmt("SET lock_timeout = '2s'", true), stmt(sql, true)],
                    judged: true,
                },
            ]],
        };
        let p = proof::run(&plan, &url).unwrap();
        assert_eq!(p.failures, 1, "{}", p.text);
        assert!(
            p.text.contains(&format!("while holding {held}")),
            "{sql}: {}",
            p.text
        );
    }
}

#[test]
fn the_watcher_of_a_statement_outside_a_transaction_sees_its_locks() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    // A build that holds SHARE for a second (each row sleeps a
    // millisecond), named CONCURRENTLY in a comment so it is watched like
    // a CONCURRENTLY statement: the watcher must catch the SHARE.
    let slow = "CREATE FUNCTION slow_key(bigint) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$ SELECT $1 FROM pg_sleep(0.001) $$";
    let plan = Plan {
        histories: vec![vec![
            PlanFile {
                name: "V1__base.sql".into(),
                stmts: vec![stmt(&format!("{BASE};{slow}"), false)],
                judged: false,
            },
            PlanFile {
                name: "V2__watched.sql".into(),
                stmts: vec![PlanStmt {
                    outside_only: true,
                    ..stmt(
                        "CREATE INDEX idx_slow ON orders (slow_key(customer_id)) /* not CONCURRENTLY */",
                        false,
                    )
                }],
                judged: true,
            },
        ]],
    };
    let p = proof::run(&plan, &url).unwrap();
    assert_eq!(p.failures, 1, "{}", p.text);
    assert!(
        p.text.contains("held SHARE on orders while it ran"),
        "{}",
        p.text
    );
    // The real CONCURRENTLY build: seen mid-flight, never SHARE or stronger.
    let plan = Plan {
        histories: vec![vec![
            PlanFile {
                name: "V1__base.sql".into(),
                stmts: vec![stmt(BASE, false)],
                judged: false,
            },
            PlanFile {
                name: "V2__idx.sql".into(),
                stmts: vec![PlanStmt {
                    outside_only: true,
                    ..stmt(
                        "CREATE INDEX CONCURRENTLY idx_c ON orders (customer_id)",
                        false,
                    )
                }],
                judged: true,
            },
        ]],
    };
    let p = proof::run(&plan, &url).unwrap();
    assert_eq!(p.failures, 0, "{}", p.text);
    assert!(
        p.text
            .contains("held SHARE UPDATE EXCLUSIVE on orders while it ran")
            && p.text.contains("seen mid-flight"),
        "{}",
        p.text
    );
}

const MY_CLUSTER: &str = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: fixture-db\n  owner: team-fixture\nspec:\n  engine:\n    product: mariadb\n    version: \"10.11\"\n  migrations:\n    path: migrations\n    hot_tables: [payments]\n";
const MY_BASE: &str = "CREATE TABLE payments (id bigint PRIMARY KEY AUTO_INCREMENT, created_at datetime, note varchar(40))";

#[test]
fn mg103_mariadb_accepts_the_guard_on_a_table_with_rows() {
    let Some(url) = servers::mariadb_url() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(
        dir.join("platcheck.yaml"),
        "version: 1\ntoday: 2026-11-30\n",
    )
    .unwrap();
    std::fs::write(dir.join("db.yaml"), MY_CLUSTER).unwrap();
    std::fs::write(dir.join("migrations/V1__base.sql"), format!("{MY_BASE};\n")).unwrap();
    std::fs::write(
        dir.join("migrations/V2__index.sql"),
        "SET SESSION lock_wait_timeout = 5;\nALTER TABLE payments ADD INDEX idx_payments_created (created_at);\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["fix", "--verify", "--verify-mysql-url", &url, "."])
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    assert!(
        text.contains("V2__index.sql:2 ALTER TABLE payments ADD INDEX idx_payments_created (created_at), A...: accepted with LOCK=NONE on a table with rows"),
        "{text}"
    );
    assert!(!text.contains("no fixture rows"), "{text}");
    assert!(
        text.contains("the server accepted every ALGORITHM/LOCK clause"),
        "{text}"
    );
}

#[test]
fn mariadb_refuses_a_lock_none_it_cannot_keep() {
    let Some(url) = servers::mariadb_url() else {
        return;
    };
    // A type change copies the table: LOCK=NONE cannot hold, the server
    // says so, and the proof fails.
    let plan = Plan {
        histories: vec![vec![
            PlanFile {
                name: "V1__base.sql".into(),
                stmts: vec![stmt(MY_BASE, false)],
                judged: false,
            },
            PlanFile {
                name: "V2__bad.sql".into(),
                stmts: vec![stmt(
                    "ALTER TABLE payments MODIFY note int, ALGORITHM=INPLACE, LOCK=NONE",
                    false,
                )],
                judged: true,
            },
        ]],
    };
    let p = proof::mariadb::run(&plan, &url).unwrap();
    assert_eq!(p.failures, 1, "{}", p.text);
    assert!(p.text.contains("FAIL V2__bad.sql:1"), "{}", p.text);
    assert!(p.text.contains("the server refused it"), "{}", p.text);
}

/// Why a golang-migrate follow-up holding `CREATE INDEX CONCURRENTLY` has
/// no `SET statement_timeout` (and MG031 says the bound belongs in the
/// database URL): golang-migrate sends a file as one query, and the server
/// refuses CONCURRENTLY in a query of two statements, while the statement
/// alone (the file the fix writes) runs.
#[test]
fn a_set_beside_a_concurrent_index_in_one_query_is_refused() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let t = format!("pc_fixgm_{}", std::process::id());
    c.batch_execute(&format!("CREATE TABLE {t} (id bigint)"))
        .unwrap();
    let both = c.batch_execute(&format!(
        "SET statement_timeout = '15min'; CREATE INDEX CONCURRENTLY {t}_i ON {t} (id);"
    ));
    let alone = c.batch_execute(&format!(
        "-- Follows 000002_idx.up.sql (written by `platcheck fix`).\nCREATE INDEX CONCURRENTLY IF NOT EXISTS {t}_i ON {t} (id);"
    ));
    c.batch_execute(&format!("DROP TABLE {t}")).unwrap();
    let err = both.expect_err("a SET and CONCURRENTLY in one query");
    let why = err.as_db_error().map(|d| d.message().to_string());
    assert!(
        why.as_deref()
            .is_some_and(|m| m.contains("cannot run inside a transaction block")),
        "{err:?}"
    );
    alone.expect("the follow-up the fix writes runs");
}
