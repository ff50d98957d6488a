//! Where a history's files live and what they are: down scripts, popx
//! steps, a cluster's baseline dump and directories, dialect suffixes, and
//! layouts or files that do not fit, located while the rest is analysed.
use super::{files_of, is_down, of, run_dir};
use platcheck::RuleId;

#[test]
fn down_scripts_can_be_left_out() {
    let up1 = "CREATE TABLE accounts (id bigint PRIMARY KEY, note varchar(100));\n";
    let down1 = "ALTER TABLE accounts ALTER COLUMN note TYPE varchar(50);\n";
    let files = |cfg: &'static str| {
        vec![
            ("platcheck.yaml", cfg),
            ("migrations/1_a.up.sql", up1),
            ("migrations/1_a.down.sql", down1),
        ]
    };
    let linted = run_dir(&files("version: 1\n"));
    assert!(linted.findings.iter().any(is_down));
    let skipped = run_dir(&files("version: 1\nsql:\n  lint_down: false\n"));
    assert!(
        !skipped.findings.iter().any(is_down),
        "{:#?}",
        skipped.findings
    );
}

#[test]
fn popx_steps_of_one_change_see_its_tables_as_new() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "m/20240101000001000000_tokens.postgres.up.sql",
            "CREATE TABLE tokens (id uuid PRIMARY KEY, flow_id uuid);\n",
        ),
        // The next step of the same change (same 14-digit timestamp): the
        // table ships in this deploy, so nobody is using it yet.
        (
            "m/20240101000001000001_tokens.postgres.up.sql",
            "CREATE INDEX tokens_flow_idx ON tokens (flow_id);\n",
        ),
        // A later change: the table is in use by then.
        (
            "m/20240202000000000000_tokens_again.postgres.up.sql",
            "CREATE INDEX tokens_id_flow_idx ON tokens (id, flow_id);\n",
        ),
    ]);
    let files = files_of(&out, RuleId::MG001);
    assert_eq!(
        files,
        ["m/20240202000000000000_tokens_again.postgres.up.sql"]
    );
}

#[test]
fn a_clusters_baseline_is_its_starting_schema_wherever_it_lives() {
    let contract = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: shop-db\nspec:\n  engine:\n    product: mysql\n    version: \"8.0.35\"\n  migrations:\n    path: db/migrations\n    baseline: db/dumps/2024-01.sql\n";
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        ("shop-db.yaml", contract),
        (
            "db/dumps/2024-01.sql",
            "CREATE TABLE payloads (id BIGINT PRIMARY KEY, data BLOB NOT NULL);\nALTER TABEL broken;\n",
        ),
        (
            "db/migrations/V5__bigger.sql",
            "ALTER TABLE payloads MODIFY COLUMN data MEDIUMBLOB NOT NULL;\n",
        ),
    ]);
    let copy = of(&out, RuleId::MG101);
    assert_eq!(copy.len(), 1, "{:#?}", out.findings);
    assert!(
        copy[0].message.contains("BLOB → MEDIUMBLOB"),
        "{}",
        copy[0].message
    );
    // Never linted: its broken statement is no finding.
    assert!(
        out.findings
            .iter()
            .all(|f| !f.file.starts_with("db/dumps/"))
    );
}

#[test]
fn a_clusters_directories_keep_their_own_layouts_and_share_one_schema() {
    let contract = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: shop-db\nspec:\n  migrations:\n    path: db\n";
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        ("shop-db.yaml", contract),
        // A dump that sorts after the migrations: still the starting schema.
        (
            "db/zz-dumps/schema.sql",
            "CREATE TABLE orders (id bigint PRIMARY KEY, total integer);\n",
        ),
        // Flyway scans subdirectories: V2 in users/ runs before V3 in orders/.
        (
            "db/migration/users/V2__users.sql",
            "CREATE TABLE users (id bigint PRIMARY KEY, name varchar(50));\n",
        ),
        (
            "db/migration/orders/V3__widen.sql",
            "SET lock_timeout = '2s';\nALTER TABLE users ALTER COLUMN name TYPE varchar(100);\nALTER TABLE orders ALTER COLUMN total TYPE bigint;\n",
        ),
        // Plain seed files in their own directory, on the migrated schema.
        (
            "db/seeds/01_orders.sql",
            "UPDATE orders SET total = 0 WHERE total IS NULL;\n",
        ),
    ]);
    assert!(of(&out, RuleId::PC015).is_empty(), "{:#?}", out.findings);
    let rewrites: Vec<&str> = of(&out, RuleId::MG012)
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(rewrites.len(), 1, "{rewrites:#?}");
    assert!(
        rewrites[0].contains("orders.total (integer → bigint)"),
        "{}",
        rewrites[0]
    );
    assert!(out.findings.iter().all(|f| !f.file.ends_with("schema.sql")));
}

#[test]
fn dialect_suffixes_map_to_a_dialect_or_a_reason() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "delta/01create.sql",
            "CREATE TABLE events (id bigint, room text);\n",
        ),
        (
            "delta/02index.sql.postgres",
            "CREATE INDEX events_room ON events (room);\n",
        ),
        (
            "delta/02index.sql.sqlite",
            "CREATE INDEX events_room ON events (room);\n",
        ),
    ]);
    assert!(
        of(&out, RuleId::MG001)
            .iter()
            .any(|f| f.file == "delta/02index.sql.postgres"),
        "{:#?}",
        out.findings
    );
    let skipped = of(&out, RuleId::PC012);
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].file, "delta/02index.sql.sqlite");
    assert!(skipped[0].message.contains("SQLite"));

    // The same popx directory on MySQL: the MySQL file is analysed as
    // MySQL, the PostgreSQL one is skipped.
    let my = run_dir(&[
        ("platcheck.yaml", "version: 1\nsql:\n  dialect: mysql\n"),
        (
            "m/1_t.up.sql",
            "CREATE TABLE t (id int PRIMARY KEY, name varchar(255));\n",
        ),
        (
            "m/2_t.mysql.up.sql",
            "ALTER TABLE t MODIFY COLUMN name varchar(64);\n",
        ),
        (
            "m/2_t.postgres.up.sql",
            "ALTER TABLE t ALTER COLUMN name TYPE varchar(64);\n",
        ),
    ]);
    assert!(
        of(&my, RuleId::MG101)
            .iter()
            .any(|f| f.file == "m/2_t.mysql.up.sql")
    );
    assert!(of(&my, RuleId::PC009).is_empty(), "{:#?}", my.findings);
    assert_eq!(of(&my, RuleId::PC012)[0].file, "m/2_t.postgres.up.sql");
}

#[test]
fn an_unknown_layout_is_located_and_the_directory_still_analysed() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\nsql:\n  layout: flyaway\n"),
        ("db/V1__t.sql", "CREATE TABLE t (a int);\n"),
        ("db/V2__i.sql", "CREATE INDEX i ON t (a);\n"),
    ]);
    let pc008 = of(&out, RuleId::PC008);
    assert_eq!(pc008.len(), 1, "{:#?}", out.findings);
    assert_eq!((pc008[0].line, pc008[0].column), (3, 11));
    assert!(pc008[0].message.contains("flyaway"));
    assert_eq!(of(&out, RuleId::MG001).len(), 1);

    let contract = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: t-db\nspec:\n  migrations:\n    path: db\n    layout: liquid\n";
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        ("t-db.yaml", contract),
        ("db/V1__t.sql", "CREATE TABLE t (a int);\n"),
        ("db/V2__i.sql", "CREATE INDEX i ON t (a);\n"),
    ]);
    let pc004 = of(&out, RuleId::PC004);
    assert!(
        pc004
            .iter()
            .any(|f| f.file == "t-db.yaml" && f.line == 8 && f.message.contains("liquid")),
        "{:#?}",
        out.findings
    );
    assert_eq!(of(&out, RuleId::MG001).len(), 1);
}

#[test]
fn bad_input_is_located_and_the_rest_analysed() {
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        ("m/1_t.up.sql", "CREATE TABLE t (a int, b int);\n"),
        ("m/1_t_again.up.sql", "CREATE TABLE u (a int);\n"),
        ("m/2_gone.down.sql", "DROP INDEX i;\n"),
        ("m/3_i.up.sql", "CREATE INDEX i ON t (a);\n"),
        ("m/x_notes.up.sql", "SELECT 1;\n"),
    ]);
    assert_eq!(of(&out, RuleId::PC014)[0].file, "m/1_t_again.up.sql");
    assert_eq!(of(&out, RuleId::PC013)[0].file, "m/2_gone.down.sql");
    assert_eq!(of(&out, RuleId::PC015)[0].file, "m/x_notes.up.sql");
    assert_eq!(of(&out, RuleId::MG001)[0].file, "m/3_i.up.sql");

    // SQL before a dbmate file's first section never runs.
    let out = run_dir(&[
        ("platcheck.yaml", "version: 1\n"),
        (
            "db/migrations/20240101000000_t.sql",
            "/* made by hand */\nCREATE TABLE stray (a int);\n-- migrate:up\nCREATE TABLE t (a int);\n-- migrate:down\nDROP TABLE t;\n",
        ),
    ]);
    let stray = of(&out, RuleId::PC015);
    assert_eq!(stray.len(), 1, "{:#?}", out.findings);
    assert_eq!((stray[0].line, stray[0].column), (2, 1));
}
