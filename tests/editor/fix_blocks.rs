//! Missing blocks inserted from the rule's example at any depth: under
//! `spec:` (CL071's `lifecycle`) and inside an existing block (CL001's
//! `engine.next_tier`), indented as their siblings, the rest byte for byte.
use super::bin;

#[test]
fn nested_and_top_level_blocks_from_the_rule_examples() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("platcheck.yaml"),
        "version: 1\ntoday: 2026-11-30\nrules:\n  CL010: \"off\"\n  CL050: \"off\"\n  CL060: \"off\"\n",
    )
    .unwrap();
    let cluster = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: orders-db\n  owner: team-orders\nspec:\n  region: eu-west-1\n  engine:\n    class: single-instance-oltp   # one primary\n    product: postgresql\n    version: \"16\"\n  # capacity is reviewed quarterly\n  cost:\n    last_review: 2026-11-18\n    review_cadence: 30d\n";
    std::fs::write(dir.join("db.yaml"), cluster).unwrap();
    let (_, out, _) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    for rule in ["\"CL001\"", "\"CL071\""] {
        assert!(out.contains(rule), "{rule} flagged before: {out}");
    }
    let (rc, diff, err) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(rc, 1, "{err}");
    bin(dir, &["fix", "--unsafe-fixes", "."]);
    let after = std::fs::read_to_string(dir.join("db.yaml")).unwrap();
    assert!(
        after.contains("    version: \"16\"\n    next_tier:\n      trigger: TODO\n      target: TODO\n  # capacity"),
        "next_tier goes at the end of engine, indented as its keys:\n{after}"
    );
    assert!(
        after.ends_with("    review_cadence: 30d\n  lifecycle:\n    runbooks:\n      scale_up: TODO\n      scale_out: TODO\n      decommission: TODO\n"),
        "{after}"
    );
    let without: String = after
        .lines()
        .filter(|l| {
            !l.contains("TODO")
                && !l.trim_start().starts_with("next_tier:")
                && !l.trim_start().starts_with("lifecycle:")
                && !l.trim_start().starts_with("runbooks:")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without, cluster, "the rest is kept byte for byte");
    let (_, out, _) = bin(
        dir,
        &["check", "--format", "json", "--fail-on", "never", "."],
    );
    assert!(!out.contains("next_tier not declared"), "{out}");
    // What CL071 says now is about the placeholders: they point nowhere.
    assert!(!out.contains("`lifecycle` not declared"), "{out}");
    assert!(out.contains("points at TODO"), "{out}");
    let (rc, again, _) = bin(dir, &["fix", "--diff", "--unsafe-fixes", "."]);
    assert_eq!((rc, again.as_str()), (0, ""), "idempotent");
    insta::assert_snapshot!(diff);
}
