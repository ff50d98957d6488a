//! `platcheck fix`, end to end on the built binary: every fix before/after
//! (the `--diff` it prints, snapshotted), byte preservation of the rest,
//! idempotence (a second run changes nothing and `--diff` exits 0), the
//! fixed rule gone and no finding that was not there before.
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"16\"\n";
const BASE: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\n";

fn bin(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run platcheck");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// (rule, file) of every finding, as a multiset.
fn findings(dir: &Path) -> BTreeMap<(String, String), usize> {
    let (_, out, err) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let mut m = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        let k = (
            f["rule"].as_str().unwrap().to_string(),
            f["file"].as_str().unwrap().to_string(),
        );
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walk(dir) {
        out.insert(
            e.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/"),
            std::fs::read(&e).unwrap(),
        );
    }
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// The files a unified diff writes (its `+++ b/` lines).
fn diff_paths(diff: &str) -> Vec<String> {
    let mut v: Vec<String> = diff
        .lines()
        .filter_map(|l| l.strip_prefix("+++ b/"))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// The files that differ between two trees.
fn changed_paths(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect()
}

/// Lays out `files`, fixes them with `flags`, and returns the `--diff`
/// shown before the fix. Asserts the rule is gone, nothing new appeared,
/// and the fix is idempotent.
fn fixed(files: &[(&str, &str)], rule: &str, flags: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let before = findings(dir);
    assert!(
        before.keys().any(|(r, _)| r == rule),
        "{rule} is not flagged before: {before:?}"
    );
    let mut args = vec!["fix", "--diff"];
    args.extend(flags);
    args.push(".");
    let (rc, diff, err) = bin(dir, &args);
    assert_eq!(rc, 1, "--diff exits 1 when something would change: {err}");
    let untouched = tree(dir);
    let mut args = vec!["fix"];
    args.extend(flags);
    args.push(".");
    let (rc, out, err) = bin(dir, &args);
    assert!(rc == 0 || rc == 1, "fix: {out}{err}");
    assert_ne!(tree(dir), untouched, "fix wrote nothing");
    assert_eq!(
        diff_paths(&diff),
        changed_paths(&untouched, &tree(dir)),
        "--diff shows every file fix writes, over all its passes:\n{diff}"
    );
    let after = findings(dir);
    assert!(
        !after.keys().any(|(r, _)| r == rule),
        "{rule} still flagged after fix: {after:?}"
    );
    for (k, n) in &after {
        assert!(
            before.get(k).is_some_and(|b| b >= n),
            "new finding after fix: {k:?}\n{out}"
        );
    }
    // Idempotent: nothing more to do, and a second fix writes nothing.
    let once = tree(dir);
    let mut args = vec!["fix", "--diff"];
    args.extend(flags);
    args.push(".");
    let (rc, again, err) = bin(dir, &args);
    assert_eq!((rc, again.as_str()), (0, ""), "second --diff: {err}");
    let mut args = vec!["fix"];
    args.extend(flags);
    args.push(".");
    bin(dir, &args);
    assert_eq!(tree(dir), once, "a second fix changed files");
    diff
}

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

#[test]
fn mg001_dbmate_directive() {
    let d = fixed(
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
        &[],
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
fn contract_key_value_and_rule_id_renamed_in_place() {
    // `CLO12` has one close id; `CL12` is a prefix (CL120–CL129), not a typo.
    let cfg = "version: 1\ntoday: 2026-11-30\nrules:\n  cl-012: warning   # typo\n";
    let cluster = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/violations/contracts/legacy/search-db.yaml"),
    )
    .unwrap();
    let d = fixed(
        &[
            ("platcheck.yaml", cfg),
            ("contracts/search-db.yaml", &cluster),
        ],
        "PC003",
        &[],
    );
    assert!(
        d.contains("-  cl-012: warning   # typo\n+  CL012: warning   # typo"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

#[test]
fn missing_block_inserted_from_the_rule_example_with_todo_values() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("platcheck.yaml"),
        "version: 1\ntoday: 2026-11-30\n",
    )
    .unwrap();
    let cluster = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: orders-db\n  owner: team-orders\nspec:\n  region: eu-west-1   # primary\n  engine:\n    product: postgresql\n    version: \"16\"\n";
    std::fs::write(dir.join("db.yaml"), cluster).unwrap();
    let (rc, safe, _) = bin(dir, &["fix", "--diff", "."]);
    assert_eq!(
        (rc, safe.as_str()),
        (0, ""),
        "the block is an unsafe fix only"
    );
    let (rc, diff, err) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(rc, 1, "{err}");
    bin(dir, &["fix", "--unsafe-fixes", "."]);
    let after = std::fs::read_to_string(dir.join("db.yaml")).unwrap();
    assert!(
        after.starts_with(cluster),
        "the rest is kept byte for byte:\n{after}"
    );
    let (_, out, _) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    for gone in [
        "`backup` not declared",
        "`ha` not declared",
        "`restore_drill` not declared",
    ] {
        assert!(!out.contains(gone), "{gone}: {out}");
    }
    assert!(out.contains("TODO"), "PC004/PC005 point at the TODO values");
    let (rc, again, _) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    insta::assert_snapshot!(diff);
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

#[test]
fn check_fix_is_fix_and_a_machine_format_stays_parseable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(dir.join("platcheck.yaml"), PG).unwrap();
    std::fs::write(dir.join("migrations/V1__base.sql"), BASE).unwrap();
    std::fs::write(
        dir.join("migrations/V2__idx.sql"),
        "CREATE INDEX idx_c ON orders (customer_id);\n",
    )
    .unwrap();
    let (_, out, err) = bin(
        dir,
        &[
            "check",
            "--fix",
            "--format",
            "json",
            "--fail-on",
            "never",
            ".",
        ],
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule"] != "MG001"),
        "{out}"
    );
    let fixed = std::fs::read_to_string(dir.join("migrations/V2__idx.sql")).unwrap();
    assert!(
        fixed.contains("CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_c"),
        "{fixed}"
    );
}

#[path = "editor/fix_tools.rs"]
mod fix_tools;

#[path = "editor/fix_blocks.rs"]
mod fix_blocks;

#[path = "editor/fix_scratch.rs"]
mod fix_scratch;
