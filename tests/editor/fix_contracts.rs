//! The contract fixes: a key, value or rule id renamed in place, and a
//! missing block inserted from the rule's example with TODO values.
use super::{bin, fixed};
use std::path::Path;

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
