//! Who runs a migration in a transaction: Flyway (per file, its `.conf`
//! and its project configuration), Alembic, goose and golang-migrate, each
//! as the tool itself decides.
use super::{files_of, of, run_dir};
use platcheck::RuleId;
use platcheck::engine::Outcome;

#[test]
fn the_tool_decides_the_transaction() {
    let contract = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: shop-db\nspec:\n  engine:\n    product: postgresql\n    version: \"16\"\n  migrations:\n    path: db/migration\n    tool: flyway\n";
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        ("shop-db.yaml", contract),
        (
            "db/migration/V1__orders.sql",
            "CREATE TABLE orders (id bigint PRIMARY KEY, status text);\n",
        ),
        // Mixed: Flyway keeps its transaction, and CONCURRENTLY fails in it.
        (
            "db/migration/V2__mixed.sql",
            "ALTER TABLE orders ADD COLUMN note text;\nCREATE INDEX CONCURRENTLY idx_orders_note ON orders (note);\n",
        ),
        // Only statements that cannot run in a transaction: Flyway runs it outside one.
        (
            "db/migration/V3__index.sql",
            "CREATE INDEX CONCURRENTLY idx_orders_status ON orders (status);\n",
        ),
        // A backfill in the DDL's transaction.
        (
            "db/migration/V4__backfill.sql",
            "ALTER TABLE orders ADD COLUMN region text;\nUPDATE orders SET region = 'eu';\n",
        ),
        // The opt-out Flyway reads, and one it does not.
        (
            "db/migration/V5__opted_out.sql",
            "SET lock_timeout = '2s';\nCREATE INDEX CONCURRENTLY idx_orders_region ON orders (region);\n",
        ),
        (
            "db/migration/V5__opted_out.sql.conf",
            "executeInTransaction=false\n",
        ),
        (
            "db/migration/V6__prose.sql",
            "-- executeInTransaction=false, as discussed\nSET lock_timeout = '2s';\nCREATE INDEX CONCURRENTLY idx_orders_id_status ON orders (id, status);\n",
        ),
    ]);
    let mg003 = files_of(&out, RuleId::MG003);
    assert_eq!(
        mg003,
        ["db/migration/V2__mixed.sql", "db/migration/V6__prose.sql"],
        "{:#?}",
        of(&out, RuleId::MG003)
    );
    assert!(of(&out, RuleId::MG003)[0].message.contains("Flyway"));
    assert_eq!(of(&out, RuleId::MG034).len(), 1);
    assert!(
        of(&out, RuleId::MG032)
            .iter()
            .any(|f| f.file.ends_with("V4__backfill.sql"))
    );

    // Alembic runs every migration in a transaction; its opt-out lives in
    // Python, so only a COMMIT in the SQL export ends it.
    let alembic = run_dir(&[
        ("platcheck.yaml", "version: 1\nsql:\n  tool: alembic\n"),
        (
            "versions/0001_idx.sql",
            "CREATE INDEX CONCURRENTLY i ON orders (a);\n",
        ),
        (
            "versions/0002_idx.sql",
            "COMMIT;\nCREATE INDEX CONCURRENTLY j ON orders (b);\nBEGIN;\n",
        ),
        (
            "versions/0003_idx.sql",
            "-- +goose NO TRANSACTION (not a goose file: Alembic does not read this)\nCREATE INDEX CONCURRENTLY k ON orders (c);\n",
        ),
    ]);
    let files = files_of(&alembic, RuleId::MG003);
    assert_eq!(files, ["versions/0001_idx.sql", "versions/0003_idx.sql"]);

    // goose: the directive line opts out; the same words in prose do not.
    let goose = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "migrations/00001_idx.sql",
            "-- +goose NO TRANSACTION\n-- +goose Up\nCREATE INDEX CONCURRENTLY i ON orders (a);\n",
        ),
        (
            "migrations/00002_idx.sql",
            "-- +goose Up\n-- runs with no transaction? no: goose NO TRANSACTION must be a directive\nCREATE INDEX CONCURRENTLY j ON orders (b);\n",
        ),
    ]);
    let files = files_of(&goose, RuleId::MG003);
    assert_eq!(files, ["migrations/00002_idx.sql"]);
}

#[test]
fn flyway_project_configuration_is_read_where_flyway_reads_it() {
    let mixed =
        "ALTER TABLE orders ADD COLUMN note text;\nCREATE INDEX CONCURRENTLY i ON orders (note);\n";
    let files = |conf: (&'static str, &'static str)| {
        vec![
            ("platcheck.yaml", "version: 1\n"),
            conf,
            (
                "db/migration/V1__orders.sql",
                "CREATE TABLE orders (id bigint, status text);\n",
            ),
            ("db/migration/V2__mixed.sql", mixed),
        ]
    };
    let mg003 = |out: &Outcome| of(out, RuleId::MG003).len();
    // mixed = true: the migration runs outside a transaction as a whole.
    assert_eq!(
        mg003(&run_dir(&files(("flyway.conf", "flyway.mixed=true\n")))),
        0
    );
    assert_eq!(
        mg003(&run_dir(&files((
            "flyway.toml",
            "[environments.default]\nurl = \"jdbc:postgresql://db/shop\"\n\n[flyway]\nexecuteInTransaction = false\n"
        )))),
        0
    );
    // A configuration beside another project, or commented out, is not this one's.
    assert_eq!(
        mg003(&run_dir(&files((
            "other/flyway.conf",
            "flyway.mixed=true\n"
        )))),
        1
    );
    assert_eq!(
        mg003(&run_dir(&files(("flyway.conf", "# flyway.mixed=true\n")))),
        1
    );
}

#[test]
fn golang_migrate_files_are_one_implicit_transaction() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "migrations/000001_t.up.sql",
            "CREATE TABLE t (a int, b int);\n",
        ),
        (
            "migrations/000002_one.up.sql",
            "CREATE INDEX CONCURRENTLY i ON t (a);\n",
        ),
        (
            "migrations/000003_two.up.sql",
            "SET lock_timeout = '2s';\nCREATE INDEX CONCURRENTLY j ON t (b);\n",
        ),
    ]);
    let files = files_of(&out, RuleId::MG003);
    assert_eq!(files, ["migrations/000003_two.up.sql"]);
    assert!(
        of(&out, RuleId::MG003)[0]
            .message
            .contains("implicit transaction")
    );
}

/// dbmate sends a `transaction:false` section as one query: with two
/// statements PostgreSQL runs them in one implicit transaction, where
/// CONCURRENTLY is refused; with one it is not.
#[test]
fn dbmate_transaction_false_sections_are_one_implicit_transaction() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "db/migrations/20240101000001_t.sql",
            "-- migrate:up\nCREATE TABLE t (a int, b int);\n-- migrate:down\nDROP TABLE t;\n",
        ),
        (
            "db/migrations/20240101000002_one.sql",
            "-- migrate:up transaction:false\nCREATE INDEX CONCURRENTLY i ON t (a);\n\n-- migrate:down\nDROP INDEX i;\n",
        ),
        (
            "db/migrations/20240101000003_two.sql",
            "-- migrate:up transaction:false\nSET lock_timeout = '2s';\nCREATE INDEX CONCURRENTLY j ON t (b);\n\n-- migrate:down\nDROP INDEX j;\n",
        ),
    ]);
    let files = files_of(&out, RuleId::MG003);
    assert_eq!(files, ["db/migrations/20240101000003_two.sql"]);
    let message = &of(&out, RuleId::MG003)[0].message;
    assert!(message.contains("implicit transaction"), "{message}");
    assert!(message.contains("dbmate"), "{message}");
}
