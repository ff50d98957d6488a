//! The tools whose history is a plan or a changelog rather than a file a
//! version: sqitch (changes of their own in sqitch.plan, else after the
//! script's own COMMIT) and Liquibase (`runInTransaction:false`, a changeset
//! of its own).
use super::super::{PG, fixed};
use super::{BASE_TABLES, BUSY, TIMEOUTS, fixed_by_rule};

const SQITCH_PLAN: &str = "%syntax-version=1.0.0\n%project=shop\n\nbase 2026-01-01T00:00:00Z A <a@example.com> # base\nidx [base] 2026-01-02T00:00:00Z Ann Lee <ann@example.com> # idx\n";

/// A sqitch project: the plan, base and idx with their revert and verify
/// scripts, idx's deploy script holding `idx_body` in BEGIN/COMMIT.
fn sqitch_project(plan: &str, idx_body: &str) -> Vec<(&'static str, String)> {
    vec![
        ("platcheck.yaml", PG.to_string()),
        ("sqitch.plan", plan.to_string()),
        ("deploy/base.sql", format!("BEGIN;\n{BASE_TABLES}COMMIT;\n")),
        (
            "revert/base.sql",
            "BEGIN;\nDROP TABLE orders;\nDROP TABLE customers;\nCOMMIT;\n".into(),
        ),
        (
            "verify/base.sql",
            "SELECT id FROM orders WHERE false;\n".into(),
        ),
        (
            "deploy/idx.sql",
            format!("-- Deploy shop:idx\nBEGIN;\n{TIMEOUTS}{idx_body}COMMIT;\n"),
        ),
        (
            "revert/idx.sql",
            "BEGIN;\nALTER TABLE customers DROP COLUMN IF EXISTS note;\nCOMMIT;\n".into(),
        ),
        (
            "verify/idx.sql",
            "SELECT id FROM customers WHERE false;\n".into(),
        ),
    ]
}

fn borrowed<'a>(files: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    files.iter().map(|(p, t)| (*p, t.as_str())).collect()
}

/// Work that must leave the transaction becomes sqitch changes of its own:
/// planned after idx (each requiring the one before, by idx's planner,
/// dated `today`), with deploy, revert and verify scripts. Every verify
/// script is a PC012 notice (checks, not history): the new ones too.
#[test]
fn sqitch_work_becomes_changes_of_its_own() {
    let files = sqitch_project(SQITCH_PLAN, BUSY);
    let d = fixed_by_rule(&borrowed(&files), "MG001", &["PC012"]);
    for path in [
        "+++ b/deploy/idx_index_idx_c.sql",
        "+++ b/revert/idx_index_idx_c.sql",
        "+++ b/verify/idx_index_idx_c.sql",
        "+++ b/deploy/idx_validate_orders_customer_id_fkey.sql",
        "+++ b/revert/idx_alter_orders.sql",
    ] {
        assert!(d.contains(path), "{path}: {d}");
    }
    assert!(
        d.contains("+idx_index_idx_c [idx] 2026-11-30T00:00:00Z Ann Lee <ann@example.com> # Follows idx (written by `platcheck fix`)\n"),
        "{d}"
    );
    assert!(
        d.contains("+DROP INDEX CONCURRENTLY IF EXISTS idx_c;"),
        "the revert undoes the index: {d}"
    );
    insta::assert_snapshot!(d);
}

/// SET NOT NULL: the CHECK added NOT VALID in idx, then two changes (the
/// validate and SET NOT NULL, then the CHECK's drop, whose revert adds the
/// CHECK back as idx adds it).
#[test]
fn sqitch_set_not_null_plans_two_changes() {
    let files = sqitch_project(
        SQITCH_PLAN,
        "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;\n",
    );
    let d = fixed_by_rule(&borrowed(&files), "MG013", &["PC012"]);
    assert!(
        d.contains("+idx_orders_customer_id_not_null [idx] 2026-11-30T00:00:00Z Ann Lee <ann@example.com> # Follows idx (written by `platcheck fix`)\n+idx_orders_customer_id_drop_check [idx_orders_customer_id_not_null] 2026-11-30T00:00:00Z"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

/// Another change planned after idx: a change between them would change
/// the ids of the deployed ones, so the work moves after idx's own COMMIT.
#[test]
fn sqitch_change_not_last_keeps_work_after_its_commit() {
    let plan = format!("{SQITCH_PLAN}later [idx] 2026-01-03T00:00:00Z A <a@example.com> # later\n");
    let mut files = sqitch_project(&plan, BUSY);
    files.push(("deploy/later.sql", "SELECT 1;\n".into()));
    files.push(("revert/later.sql", "SELECT 1;\n".into()));
    let d = fixed(&borrowed(&files), "MG001", &["--unsafe-fixes"]);
    assert!(!d.contains("sqitch.plan"), "{d}");
    insta::assert_snapshot!(d);
}

#[test]
fn liquibase_changeset_alone_opts_out_on_its_line() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            (
                "db/changelog.sql",
                &format!(
                    "--liquibase formatted sql\r\n\r\n--changeset alice:1\r\n{}\r\n--changeset alice:2 labels:perf\r\n{}CREATE INDEX idx_c ON orders (customer_id);\r\n",
                    BASE_TABLES.replace('\n', "\r\n"),
                    TIMEOUTS.replace('\n', "\r\n")
                ),
            ),
        ],
        "MG001",
        &[],
    );
    assert!(
        d.contains("+--changeset alice:2 labels:perf runInTransaction:false\r\n"),
        "{d}"
    );
    insta::assert_snapshot!(d.replace('\r', "␍"));
}

#[test]
fn liquibase_busy_changeset_gets_changesets_of_their_own() {
    let d = fixed(
        &[
            ("platcheck.yaml", PG),
            (
                "db/changelog.sql",
                &format!(
                    "--liquibase formatted sql\n\n--changeset alice:1\n{BASE_TABLES}\n--changeset alice:2\n{TIMEOUTS}{BUSY}\n--changeset alice:3\n{TIMEOUTS}ALTER TABLE customers ADD COLUMN memo text;\n"
                ),
            ),
        ],
        "MG017",
        &["--unsafe-fixes"],
    );
    assert!(
        d.contains("+--changeset alice:2-index_idx_c runInTransaction:false\n"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}
