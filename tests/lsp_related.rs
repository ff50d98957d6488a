//! Related information comes from the rules, not from reading the message
//! back: every rule whose message names another place (`{line}`, `{lines}`,
//! `{first}`) attaches that place as a secondary span when it reports, so
//! the editor can link it. The list of such rules is read from the catalog:
//! a new rule that names a line and forgets the span fails here.
mod common;
use platcheck::RuleId;
use platcheck::finding::Finding;
use platcheck::outcome::Outcome;
use std::path::Path;

const PLACES: &[&str] = &["{line}", "{lines}", "{first}"];

fn names_a_place(rule: RuleId) -> bool {
    let m = rule.meta();
    std::iter::once(&m.message)
        .chain(m.messages.values())
        .any(|t| PLACES.iter().any(|p| t.contains(p)))
}

/// Every related span of `f` as the message would write it: `N` in the
/// finding's own file, `display:N` in another.
fn related_as_written(outcome: &Outcome, f: &Finding) -> Vec<String> {
    f.related
        .iter()
        .map(|r| {
            let file = outcome
                .files
                .iter()
                .find(|s| s.path == r.path)
                .unwrap_or_else(|| panic!("{}: related file {:?} not in the run", f.rule, r.path));
            assert!(
                r.start <= r.end && r.end <= file.text.len(),
                "{}: span {}..{} outside {}",
                f.rule,
                r.start,
                r.end,
                file.display
            );
            assert!(
                !r.message.is_empty(),
                "{}: a related place says what it is",
                f.rule
            );
            let line = file.line_col(r.start).line;
            if file.display == f.file {
                line.to_string()
            } else {
                format!("{}:{line}", file.display)
            }
        })
        .collect()
}

/// The message's numbers and `file:N` words.
fn places_in(message: &str) -> Vec<String> {
    message
        .split(|c: char| c.is_whitespace() || "(),`'".contains(c))
        .map(|w| w.trim_end_matches(['.', ':', ';']))
        .filter(|w| {
            let n = w.rsplit(':').next().unwrap_or(w);
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}

fn check(outcome: &Outcome, rule: RuleId) -> usize {
    let mut with = 0;
    for f in outcome.findings.iter().filter(|f| f.rule == rule) {
        let related = related_as_written(outcome, f);
        let words = places_in(&f.message);
        for r in &related {
            assert!(
                words.contains(r),
                "{rule}: related line {r} is not named in `{}`",
                f.message
            );
        }
        with += usize::from(!related.is_empty());
    }
    with
}

#[test]
fn every_rule_that_names_a_place_attaches_it() {
    let rules: Vec<RuleId> = RuleId::ALL
        .iter()
        .copied()
        .filter(|r| names_a_place(*r))
        .collect();
    assert!(rules.len() >= 7, "{rules:?}");
    for rule in rules {
        let fam = rule.as_str()[..2].to_ascii_lowercase();
        let dir = Path::new("tests/fixtures").join(fam).join(rule.as_str());
        let bad = std::fs::read_dir(common::root().join(&dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_stem().is_some_and(|s| s == "bad"))
            .unwrap_or_else(|| panic!("{}: no bad fixture", dir.display()));
        let rel = bad.strip_prefix(common::root()).unwrap();
        let own = Path::new("tests/editor/related").join(format!("{rule}.yaml"));
        // A bad fixture whose findings name no other place (PC010's unused
        // suppressions all trail their line) is joined by one here.
        let mut with = check(&common::check_fixture(rel), rule);
        if common::root().join(&own).exists() {
            with += check(&common::check_fixture(&own), rule);
        }
        assert!(with > 0, "{rule}: no finding carries a related place");
    }
}

#[test]
fn a_suppression_on_its_own_line_relates_the_line_it_would_silence() {
    let outcome = common::check_fixture(Path::new("tests/editor/related/PC010.yaml"));
    let f = outcome
        .findings
        .iter()
        .find(|f| f.rule == RuleId::PC010 && f.message.contains("matches no finding"))
        .expect("an unused suppression");
    assert_eq!(related_as_written(&outcome, f), vec!["11".to_string()]);
}
