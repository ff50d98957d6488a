//! The migration history as the migration tool sees it: every layout's
//! fixture (tests/fixtures/inputs/history/) replayed in the tool's order,
//! downs judged against the schema after their own up step, dumps as the
//! starting schema, transactions from the tool, bad input located, and the
//! order of files on disk irrelevant.
mod common;
use platcheck::engine::{self, Outcome};
use platcheck::settings::Overrides;
use platcheck::{Finding, RuleId};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const LAYOUTS: &[&str] = &[
    "golang-migrate",
    "popx",
    "diesel",
    "dbmate",
    "goose",
    "sql-migrate",
    "flyway",
    "liquibase",
    "sqitch",
    "plain",
    "schema-dump",
];

fn fixture(layout: &str) -> PathBuf {
    Path::new("tests/fixtures/inputs/history").join(layout)
}

fn of(out: &Outcome, rule: RuleId) -> Vec<&Finding> {
    out.findings.iter().filter(|f| f.rule == rule).collect()
}

fn is_down(f: &Finding) -> bool {
    f.message.contains("judged against the schema after")
}

/// Runs `platcheck check .` in a temporary directory holding `files`.
fn run_dir(files: &[(&str, &str)]) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let overrides = Overrides {
        today: Some(common::today()),
        ..Overrides::default()
    };
    engine::run(&[PathBuf::from(".")], dir.path(), &overrides).expect("run succeeds")
}

#[test]
fn every_layout_fixture_replays_the_tools_history() {
    for layout in LAYOUTS {
        let out = common::check(&[&fixture(layout)]);
        common::versionless(|| {
            insta::assert_snapshot!(format!("layout_{layout}"), common::human(&out))
        });
        if *layout == "schema-dump" {
            continue;
        }
        // Step 2's up script casts `ref` to the type it already has and
        // widens `note`: no rewrite. With step 1's DROP TABLE replayed
        // before it, both would be reported as rewrites.
        let forward_rewrites: Vec<&Finding> = of(&out, RuleId::MG012)
            .into_iter()
            .filter(|f| !is_down(f) && !f.message.contains("integer → bigint"))
            .collect();
        assert!(
            forward_rewrites.is_empty(),
            "{layout}: a down script leaked into the forward chain: {forward_rewrites:#?}"
        );
        // Step 2's down script narrows `note` back: judged on the schema
        // after step 2, that is a rewrite.
        assert!(
            of(&out, RuleId::MG012)
                .iter()
                .any(|f| is_down(f) && f.message.contains("varchar(100) → varchar(50)")),
            "{layout}: the narrowing down script was not judged after its up step"
        );
        assert!(
            of(&out, RuleId::MG003).is_empty() || *layout == "plain",
            "{layout}: the tool's own transaction opt-out was not honoured"
        );
        assert!(
            of(&out, RuleId::PC000).is_empty(),
            "{layout}: internal error"
        );
    }
}

#[test]
fn flyway_orders_versions_as_numbers() {
    let out = common::check(&[&fixture("flyway")]);
    // V10 runs after V9, so it knows the column V9 added.
    let v10: Vec<_> = of(&out, RuleId::MG012)
        .into_iter()
        .filter(|f| f.file.ends_with("V10__widen_flags.sql"))
        .collect();
    assert_eq!(v10.len(), 1);
    assert!(
        v10[0].message.contains("integer → bigint"),
        "{}",
        v10[0].message
    );
}

#[test]
fn a_versioned_copy_alter_is_judged_against_the_dump_it_follows() {
    let out = common::check(&[&fixture("schema-dump")]);
    let copies = of(&out, RuleId::MG101);
    // cadence/: the dump (taken at v0.3) says BLOB; v0.4 makes it MEDIUMBLOB.
    // visibility/: the dump is the final state (MEDIUMBLOB) and must not be
    // replayed after versioned/v0.1/base.sql, which says BLOB.
    for tree in ["cadence", "visibility"] {
        let hit = copies.iter().find(|f| {
            f.file.contains(&format!("mysql/{tree}/versioned/v0.4/"))
                && f.message.contains("BLOB → MEDIUMBLOB")
        });
        assert!(hit.is_some(), "{tree}: {copies:#?}");
    }
    // v0.10 runs after v0.4 and v0.1 (natural order of version directories).
    assert!(
        copies
            .iter()
            .any(|f| f.file.contains("v0.10/") && f.message.contains("VARCHAR(255) → VARCHAR(64)"))
    );
    // A dump is never linted.
    assert!(out.findings.iter().all(|f| !f.file.ends_with("schema.sql")));
}

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
    let mg003: Vec<&str> = of(&out, RuleId::MG003)
        .iter()
        .map(|f| f.file.as_str())
        .collect();
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
    let files: Vec<&str> = of(&alembic, RuleId::MG003)
        .iter()
        .map(|f| f.file.as_str())
        .collect();
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
    let files: Vec<&str> = of(&goose, RuleId::MG003)
        .iter()
        .map(|f| f.file.as_str())
        .collect();
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
    let files: Vec<&str> = of(&out, RuleId::MG001)
        .iter()
        .map(|f| f.file.as_str())
        .collect();
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
    let files: Vec<&str> = of(&out, RuleId::MG003)
        .iter()
        .map(|f| f.file.as_str())
        .collect();
    assert_eq!(files, ["migrations/000003_two.up.sql"]);
    assert!(
        of(&out, RuleId::MG003)[0]
            .message
            .contains("implicit transaction")
    );
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

/// Every file of the layout fixtures, as (path below the fixture, text).
fn fixture_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    for layout in ["golang-migrate", "flyway", "dbmate", "plain", "popx"] {
        let base = common::root().join(fixture(layout));
        let mut files = Vec::new();
        walk(&base, &base, &mut files);
        for (rel, text) in files {
            if rel != "platcheck.yaml" {
                out.push((format!("{layout}/{rel}"), text));
            }
        }
    }
    out.sort();
    out
}

fn findings_of(files: &[(String, String)], order: &[usize]) -> Vec<String> {
    let mut entries: Vec<(&str, &str)> =
        vec![("platcheck.yaml", "version: 1\ntoday: 2026-11-30\n")];
    entries.extend(
        order
            .iter()
            .map(|&i| (files[i].0.as_str(), files[i].1.as_str())),
    );
    let out = run_dir(&entries);
    out.findings
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{} {} {}",
                f.file, f.line, f.column, f.rule, f.message
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The files are written to disk in a shuffled order (so directory
    /// listings differ); the findings never do.
    #[test]
    fn shuffling_files_on_disk_never_changes_findings(
        shuffled in Just((0..fixture_files().len()).collect::<Vec<usize>>()).prop_shuffle()
    ) {
        let files = fixture_files();
        let sorted: Vec<usize> = (0..files.len()).collect();
        prop_assert_eq!(findings_of(&files, &shuffled), findings_of(&files, &sorted));
    }
}

/// Lines a migration file of any layout might hold, to build odd files from.
const LINES: &[&str] = &[
    "-- migrate:up",
    "-- migrate:down transaction:false",
    "-- +goose Up",
    "-- +goose Down",
    "-- +goose StatementBegin",
    "-- +goose StatementEnd",
    "-- +goose NO TRANSACTION",
    "-- +migrate Up notransaction",
    "-- +migrate Down",
    "--liquibase formatted sql",
    "--changeset a:1 runInTransaction:false",
    "--changeset broken",
    "--rollback DROP TABLE t;",
    "/* liquibase rollback",
    "*/",
    "CREATE TABLE t (a int, b text);",
    "CREATE INDEX CONCURRENTLY i ON t (a);",
    "ALTER TABLE t ALTER COLUMN b TYPE varchar(10);",
    "UPDATE t SET a = 1;",
    "'unterminated",
    "$$ body",
    "é ünïcode",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any mix of directive lines and SQL, under any layout's file name:
    /// no internal error, every finding inside its file.
    #[test]
    fn odd_files_never_break_the_history(
        lines in proptest::collection::vec(proptest::sample::select(LINES), 0..14),
        name in proptest::sample::select(&[
            "db/20240101000001_a.sql",
            "m/00001_a.sql",
            "c/changelog.sql",
            "f/V1__a.sql",
            "g/1_a.up.sql",
            "g/1_a.down.sql",
            "d/2024-01-01-000001_a/up.sql",
            "s/deploy/a.sql",
        ][..]),
    ) {
        let text = lines.join("\n");
        let mut files = vec![(name.to_string(), platcheck::discover::FileClass::Sql, text.clone())];
        if name.starts_with("s/") {
            files.push((
                "s/sqitch.plan".into(),
                platcheck::discover::FileClass::Sql,
                "%project=p\na 2024-01-01T00:00:00Z A <a@x>\nb 2024-01-02T00:00:00Z A <a@x>\n".into(),
            ));
        }
        let settings = platcheck::settings::Settings::defaults(".".into());
        let out = engine::run_sources(files, settings, Path::new(".")).expect("runs");
        for f in &out.findings {
            prop_assert_ne!(f.rule, RuleId::PC000, "{}", f.message);
            prop_assert!(f.line >= 1 && f.column >= 1);
        }
    }
}
