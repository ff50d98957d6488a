//! Every rule has `tests/fixtures/<fam>/<ID>/bad*` and `good*` (a file, or a
//! directory that is a small repository with its own platcheck.yaml). The bad
//! fixture must raise the rule (its rendered findings of that rule are
//! snapshotted); the
//! good one must not.
mod common;
use platcheck::RuleId;
use std::path::{Path, PathBuf};

fn fixture(rule: RuleId, which: &str) -> PathBuf {
    let fam = rule.as_str()[..2].to_ascii_lowercase();
    let dir = Path::new("tests/fixtures").join(fam).join(rule.as_str());
    let mut found: Vec<PathBuf> = std::fs::read_dir(common::root().join(&dir))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_stem().is_some_and(|s| s == which))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{}: expected exactly one `{which}` fixture",
        dir.display()
    );
    let abs = found.remove(0);
    abs.strip_prefix(common::root()).unwrap().to_path_buf()
}

#[test]
fn every_rule_fires_on_bad_and_not_on_good() {
    // PC000's bad fixture is a file the engine is told to crash on.
    // SAFETY: this is the only test in this binary, so no thread reads the
    // environment concurrently.
    unsafe { std::env::set_var("PLATCHECK_INJECT_PANIC", "pc/PC000/bad.yaml") };
    let mut failures = Vec::new();
    // The probe family needs running servers: tests/probe_rules.rs.
    for &rule in RuleId::ALL
        .iter()
        .filter(|r| !platcheck::rules::pr::covers(**r))
    {
        let bad = fixture(rule, "bad");
        let mut outcome = common::check_fixture(&bad);
        // The snapshot shows this rule's findings only, so adding a rule to
        // another family never churns this one's snapshot.
        outcome.findings.retain(|f| f.rule == rule);
        let hits: Vec<_> = outcome.findings.iter().collect();
        if hits.is_empty() {
            failures.push(format!(
                "{rule}: missing: bad fixture {} raised nothing",
                bad.display()
            ));
        }
        for f in &hits {
            assert!(f.line >= 1 && f.column >= 1, "{rule}: 1-based positions");
            assert!(
                !f.message.contains('{'),
                "{rule}: unfilled placeholder in `{}`",
                f.message
            );
        }
        let rendered = common::human(&outcome);
        let without_summary = rendered
            .trim_end()
            .rsplit_once('\n')
            .map_or("", |(body, _)| body);
        common::versionless(|| insta::assert_snapshot!(format!("{rule}_bad"), without_summary));

        let good = fixture(rule, "good");
        let outcome = common::check_fixture(&good);
        let noisy: Vec<_> = outcome.findings.iter().filter(|f| f.rule == rule).collect();
        if !noisy.is_empty() {
            failures.push(format!(
                "{rule}: noisy: good fixture {} raised {}",
                good.display(),
                noisy
                    .iter()
                    .map(|f| format!("{}:{} {}", f.line, f.column, f.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
