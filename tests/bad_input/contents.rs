//! What a file can hold that is not a contract we can read (empty, foreign,
//! not UTF-8, too large, too deep, hostile YAML, symlink loops), each a
//! located finding while the witness beside it is still checked.
use super::{HEAD, at, contract, one, write};
use crate::common;
use platcheck::RuleId;

#[test]
fn every_bad_input_is_located_and_the_rest_is_still_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\ntoday: 2026-11-30\n");
    // A witness that must still be checked whatever else the run meets.
    write(
        d,
        "witness.yaml",
        contract("witness", "  ha:\n    rpoo: 0s\n"),
    );
    write(d, "empty.yaml", "");
    write(d, "comments-only.yaml", "# nothing here yet\n");
    write(
        d,
        "not-ours.yaml",
        "apiVersion: apps/v1\nkind: Deployment\n",
    );
    let mut latin1 = contract("latin", "  region: eu-west-1\n").into_bytes();
    latin1.extend_from_slice(b"  # caf\xe9\n");
    write(d, "latin1.yaml", latin1);
    write(
        d,
        "bom.yaml",
        format!("\u{feff}{}", contract("bom", "  ha:\n    failover: auto\n")),
    );
    write(
        d,
        "crlf.yaml",
        contract("crlf", "  ha:\n    failover: auto\n").replace('\n', "\r\n"),
    );
    write(
        d,
        "syntax.yaml",
        contract("syntax", "  ha: [unclosed\n  region: x\n"),
    );
    write(
        d,
        "dupkey.yaml",
        contract("dupkey", "  region: a\n  region: b\n"),
    );
    let mut bomb = contract("bomb", "  x:\n");
    bomb.push_str("    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        bomb.push_str(&format!("    a{i}: &a{i} [{refs}]\n"));
    }
    write(d, "bomb.yaml", bomb);
    let deep = format!(
        "{}  x: {}{}\n",
        HEAD.replace("NAME", "deep"),
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    write(d, "deep.yaml", deep);
    let mut big = contract("big", "  region: eu-west-1\n");
    let filler = format!("  # {}\n", "x".repeat(1000));
    while big.len() < 50 * 1024 * 1024 {
        big.push_str(&filler);
    }
    write(d, "big.yaml", big);
    write(
        d,
        "types.yaml",
        contract(
            "types",
            "  ha:\n    fencing: \"yes\"\n  sharding:\n    shard_count: many\n",
        ),
    );
    write(
        d,
        "kind.yaml",
        contract("kind", "  region: x\n").replace("kind: Cluster", "kind: Clusterr"),
    );
    write(
        d,
        "api.yaml",
        contract("api", "  region: x\n").replace("platcheck/v1", "platcheck/v9"),
    );
    write(d, "dup-a.yaml", contract("same", "  region: x\n"));
    write(d, "dup-b.yaml", contract("same", "  region: y\n"));
    std::os::unix::fs::symlink(d.join("gone.yaml"), d.join("dangling.yaml")).unwrap();
    std::fs::create_dir(d.join("loop")).unwrap();
    std::os::unix::fs::symlink(d.join("loop"), d.join("loop/back")).unwrap();

    let started = std::time::Instant::now();
    let outcome = common::check(&[d]);
    let f = &outcome.findings;
    // Bounded work, not a benchmark: a hang would be minutes.
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );

    let w = one(f, "witness.yaml", RuleId::PC003);
    assert_eq!((w.line, w.column), (8, 5));
    for quiet in ["empty.yaml", "comments-only.yaml", "not-ours.yaml"] {
        assert!(
            at(f, quiet).is_empty(),
            "{quiet} is not a contract and is left alone"
        );
    }
    let l = one(f, "latin1.yaml", RuleId::PC001);
    assert!(l.message.contains("not valid UTF-8"), "{}", l.message);
    assert_eq!((l.line, l.column), (1, 1));
    // BOM and CRLF do not shift columns.
    let b = one(f, "bom.yaml", RuleId::PC004);
    let c = one(f, "crlf.yaml", RuleId::PC004);
    assert_eq!((b.line, b.column, b.end_column), (8, 15, 19));
    assert_eq!((c.line, c.column, c.end_column), (8, 15, 19));
    let s = one(f, "syntax.yaml", RuleId::PC002);
    assert!(
        s.line >= 7,
        "syntax error located at its line, got {}",
        s.line
    );
    let k = one(f, "dupkey.yaml", RuleId::PC002);
    assert!(k.message.contains("duplicate"), "{}", k.message);
    assert_eq!((k.line, k.column), (8, 3));
    let bo = one(f, "bomb.yaml", RuleId::PC002);
    assert!(
        bo.message.contains("budget") || bo.message.contains("alias"),
        "{}",
        bo.message
    );
    let de = one(f, "deep.yaml", RuleId::PC002);
    assert!(
        de.message.contains("recursion") || de.message.contains("depth"),
        "{}",
        de.message
    );
    let bg = one(f, "big.yaml", RuleId::PC001);
    assert!(bg.message.contains("larger than"), "{}", bg.message);
    assert!(
        at(f, "types.yaml")
            .iter()
            .filter(|x| x.rule == RuleId::PC004)
            .count()
            == 2
    );
    assert!(
        one(f, "kind.yaml", RuleId::PC006)
            .message
            .contains("Clusterr")
    );
    assert!(
        one(f, "api.yaml", RuleId::PC006)
            .message
            .contains("platcheck/v9")
    );
    assert!(
        one(f, "dup-b.yaml", RuleId::PC007)
            .message
            .contains("dup-a.yaml:4")
    );
    assert!(
        one(f, "dangling.yaml", RuleId::PC001)
            .message
            .contains("no such file")
    );
    let lp: Vec<_> = f
        .iter()
        .filter(|x| x.rule == RuleId::PC001 && x.message.contains("symlink loop"))
        .collect();
    assert_eq!(lp.len(), 1, "{f:#?}");
}
