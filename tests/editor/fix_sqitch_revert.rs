//! sqitch: when a fix moves work out of a change's deploy script, the
//! change's own revert script follows (tests/fix_sqitch.rs runs the result
//! with the real sqitch): a drop of what moved out goes (the new change's
//! revert drops it, and a second drop fails), and what the deploy now
//! creates (the SET NOT NULL fix's CHECK) is dropped first. DROP INDEX and
//! an unnamed CREATE INDEX get CONCURRENTLY where sqitch runs them.
use super::fix_tools::fixed_by_rule;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"16\"\n";
const PLAN: &str = "%syntax-version=1.0.0\n%project=shop\n\nbase 2026-01-01T00:00:00Z A <a@example.com> # base\nidx [base] 2026-01-02T00:00:00Z Ann Lee <ann@example.com> # idx\n";
const BASE: &str = "BEGIN;\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, public_id uuid);\nCREATE TABLE customers (id bigint PRIMARY KEY);\nCREATE INDEX CONCURRENTLY IF NOT EXISTS old_i ON orders (public_id);\nCOMMIT;\n";
const TIMEOUTS: &str = "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\n";

fn project<'a>(deploy: &'a str, revert: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("platcheck.yaml", PG),
        ("sqitch.plan", PLAN),
        ("deploy/base.sql", BASE),
        (
            "revert/base.sql",
            "DROP TABLE orders;\nDROP TABLE customers;\n",
        ),
        ("deploy/idx.sql", deploy),
        ("revert/idx.sql", revert),
    ]
}

#[test]
fn revert_no_longer_drops_what_moved_out() {
    let deploy = format!(
        "BEGIN;\n{TIMEOUTS}ALTER TABLE customers ADD COLUMN note text;\nCREATE INDEX idx_c ON orders (customer_id);\nALTER TABLE orders ADD CONSTRAINT orders_public_id_key UNIQUE (public_id);\nCOMMIT;\n"
    );
    let revert = "BEGIN;\n  ALTER TABLE orders DROP CONSTRAINT orders_public_id_key; -- unique\nDROP INDEX IF EXISTS idx_c;\nALTER TABLE customers DROP COLUMN note;\nCOMMIT;\n";
    let d = fixed_by_rule(&project(&deploy, revert), "MG001", &[]);
    assert!(d.contains("-DROP INDEX IF EXISTS idx_c;\n"), "{d}");
    assert!(
        d.contains("-  ALTER TABLE orders DROP CONSTRAINT orders_public_id_key; -- unique\n"),
        "the statement goes, with its line: {d}"
    );
    insta::assert_snapshot!(d);
}

#[test]
fn revert_drops_the_check_the_deploy_now_adds() {
    let deploy = format!(
        "BEGIN;\r\n{}ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;\r\nCOMMIT;\r\n",
        TIMEOUTS.replace('\n', "\r\n")
    );
    let revert = "-- Revert shop:idx\r\nSET lock_timeout = '2s';\r\nBEGIN;\r\nALTER TABLE orders ALTER COLUMN customer_id DROP NOT NULL;\r\nCOMMIT;\r\n";
    let d = fixed_by_rule(&project(&deploy, revert), "MG013", &[]);
    assert!(
        d.contains(
            "+ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_customer_id_not_null;\r\n BEGIN;"
        ),
        "before the revert's BEGIN, after its SET: {d}"
    );
    insta::assert_snapshot!(d.replace('\r', "␍"));
}

/// DROP INDEX after other work in the change's transaction: sqitch runs
/// the script with psql, so the drop goes after the script's COMMIT, as
/// DROP INDEX CONCURRENTLY IF EXISTS (no change of its own: what would
/// undo a drop is the index's definition, the user's revert has it).
#[test]
fn drop_index_goes_after_the_commit() {
    let deploy = format!(
        "BEGIN;\n{TIMEOUTS}ALTER TABLE customers ADD COLUMN note text;\nDROP INDEX old_i;\nCOMMIT;\n"
    );
    let revert = "BEGIN;\nCREATE INDEX old_i ON orders (public_id);\nALTER TABLE customers DROP COLUMN note;\nCOMMIT;\n";
    let d = fixed_by_rule(&project(&deploy, revert), "MG002", &[]);
    assert!(
        d.contains(" COMMIT;\n+DROP INDEX CONCURRENTLY IF EXISTS old_i;\n"),
        "{d}"
    );
    insta::assert_snapshot!(d);
}

/// An unnamed index after the script's COMMIT: built concurrently in
/// place, under the name PostgreSQL gives it (the one the revert drops).
#[test]
fn unnamed_index_after_commit_gets_its_name() {
    let deploy = format!(
        "BEGIN;\n{TIMEOUTS}ALTER TABLE customers ADD COLUMN note text;\nCOMMIT;\n{TIMEOUTS}CREATE INDEX ON orders (customer_id);\n"
    );
    let revert = "DROP INDEX orders_customer_id_idx;\nALTER TABLE customers DROP COLUMN note;\n";
    let d = fixed_by_rule(&project(&deploy, revert), "MG001", &[]);
    assert!(
        d.contains("+CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_customer_id_idx ON orders (customer_id);"),
        "{d}"
    );
    assert!(!d.contains("revert/idx.sql"), "the index stays in idx: {d}");
    insta::assert_snapshot!(d);
}

/// An unnamed index in the change's transaction, at its end: named, it
/// becomes a change of its own with a revert and a verify script, and the
/// flagged revert's drop of it goes.
#[test]
fn unnamed_index_in_the_transaction_becomes_a_change() {
    let deploy = format!(
        "BEGIN;\n{TIMEOUTS}ALTER TABLE customers ADD COLUMN note text;\nCREATE INDEX ON orders (customer_id);\nCOMMIT;\n"
    );
    let revert = "BEGIN;\nDROP INDEX orders_customer_id_idx;\nALTER TABLE customers DROP COLUMN note;\nCOMMIT;\n";
    let d = fixed_by_rule(&project(&deploy, revert), "MG001", &[]);
    assert!(d.contains("+++ b/revert/idx_follow_up.sql"), "{d}");
    assert!(d.contains("-DROP INDEX orders_customer_id_idx;\n"), "{d}");
    insta::assert_snapshot!(d);
}
