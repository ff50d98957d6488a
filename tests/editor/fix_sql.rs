//! The PostgreSQL and MySQL fixes, each before/after as the `--diff` it
//! prints (through `fixed`: the rule gone, nothing new, idempotent).
use super::{BASE, PG, fixed};

#[test]
fn mg001_flyway_index_gets_concurrently_and_a_sidecar() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__idx.sql",
                "-- Speeds up the history page.\nCREATE INDEX idx_orders_customer ON orders (customer_id);\n",
            ),
        ],
        "MG001",
        &["--unsafe-fixes"],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg001_keeps_crlf_quoting_and_comments() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__idx.sql",
                "-- Quoted name, CRLF endings.\r\nSET lock_timeout = '1s';\r\nSET statement_timeout = '5min';\r\n  CREATE UNIQUE INDEX \"Idx_Public\" ON orders (public_id); -- trailing note\r\n",
            ),
        ],
        "MG001",
        &[],
    );
    assert!(!d.contains("\n+CREATE"), "the CRLF file keeps CRLF: {d}");
    insta::assert_snapshot!(d.replace('\r', "␍"));
}

#[test]
fn mg001_goose_directive() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/00001_base.sql",
                &format!("-- +goose Up\n{BASE}"),
            ),
            (
                "migrations/00002_idx.sql",
                "-- +goose Up\nSET lock_timeout = '2s';\nSET statement_timeout = '15min';\nCREATE INDEX idx_c ON orders (customer_id);\n\n-- +goose Down\nDROP INDEX idx_c;\n",
            ),
        ],
        "MG001",
        &[],
    );
    insta::assert_snapshot!(d);
}

/// dbmate runs a `transaction:false` file as one Exec, one implicit
/// transaction once it holds a second statement: the SETs go (MG031, a
/// notice, may then flag the build; its message says why).
#[test]
fn mg001_dbmate_directive() {
    let d = super::fix_tools::fixed_by_rule(
        &[
            ("platcheck.yaml", PG),
            (
                "db/migrations/20260101000000_base.sql",
                &format!("-- migrate:up\n{BASE}\n-- migrate:down\nDROP TABLE orders;\n"),
            ),
            (
                "db/migrations/20260102000000_idx.sql",
                "-- migrate:up\nSET lock_timeout = '2s';\nSET statement_timeout = '15min';\nCREATE INDEX idx_c ON orders (customer_id);\n\n-- migrate:down\nDROP INDEX idx_c;\n",
            ),
        ],
        "MG001",
        &["MG031"],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg001_not_alone_moves_to_the_next_migration() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__two.sql",
                "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE customers ADD COLUMN note text;\nCREATE INDEX idx_c ON orders (customer_id);\n",
            ),
        ],
        "MG001",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg002_sql_migrate_drop_index() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            (
                "migrations/1_base.sql",
                &format!("-- +migrate Up\n{BASE}CREATE INDEX idx_c ON orders (customer_id);\n"),
            ),
            (
                "migrations/2_drop.sql",
                "-- +migrate Up\nSET lock_timeout = '2s';\nDROP INDEX idx_c;\n\n-- +migrate Down\nCREATE INDEX idx_c ON orders (customer_id);\n",
            ),
        ],
        "MG002",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg013_set_not_null_in_three_steps() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__nn.sql",
                "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;\n",
            ),
        ],
        "MG013",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg015_foreign_key_not_valid_then_validate() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/000001_base.up.sql", BASE),
            (
                "migrations/000002_fk.up.sql",
                "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers (id);\n",
            ),
        ],
        "MG015",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg017_unique_through_a_concurrent_index() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__uq.sql",
                "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\n",
            ),
        ],
        "MG017",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg030_mg031_preamble_keeps_indentation() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            ("migrations/V1__base.sql", BASE),
            (
                "migrations/V2__col.sql",
                "BEGIN;\n    ALTER TABLE orders ALTER COLUMN customer_id TYPE text;\nCOMMIT;\n",
            ),
        ],
        "MG031",
        &["--unsafe-fixes"],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg103_mysql_guard_from_the_lock_table() {
    let db = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: fixture-db\n  owner: team-fixture\nspec:\n  engine:\n    product: mysql\n    version: \"8.0.35\"\n  migrations:\n    path: migrations\n    hot_tables: [payments]\n";
    let d = fixed(
        &[
            ("platcheck.yaml", "version: 1\ntoday: 2026-11-30\n"),
            ("db.yaml", db),
            (
                "migrations/V4__index.sql",
                "SET SESSION lock_wait_timeout = 5;\nALTER TABLE payments ADD INDEX idx_payments_created (created_at);\n",
            ),
        ],
        "MG103",
        &[],
    );
    insta::assert_snapshot!(d);
}

#[test]
fn mg100_forced_copy_lifted_only_with_unsafe_fixes() {
    let db = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: fixture-db\n  owner: team-fixture\nspec:\n  engine:\n    product: mysql\n    version: \"8.0.35\"\n  migrations:\n    path: migrations\n    hot_tables: [payments]\n";
    let d = fixed(
        &[
            (
                "platcheck.yaml",
                "version: 1\ntoday: 2026-11-30\nrules:\n  CL010: \"off\"\n  CL050: \"off\"\n  CL060: \"off\"\n  CL071: \"off\"\n",
            ),
            ("db.yaml", db),
            (
                "migrations/V3__memo.sql",
                "SET SESSION lock_wait_timeout = 5;\nALTER TABLE payments ADD COLUMN note text, ALGORITHM=COPY;\n",
            ),
        ],
        "MG100",
        &["--unsafe-fixes"],
    );
    insta::assert_snapshot!(d);
}
