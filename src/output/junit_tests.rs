//! JUnit streamed is JUnit as it was rendered whole (`whole`, the printer
//! before it streamed), byte for byte.
use super::*;
use crate::source::{FileClass, SourceFile};
use std::collections::BTreeMap;

fn whole(outcome: &Outcome) -> String {
    let mut cases: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for f in &outcome.findings {
        cases
            .entry((&f.file, f.rule.as_str()))
            .or_default()
            .push(format!(
                "{}:{}:{}: {}: {}",
                f.file,
                f.line,
                f.column,
                f.severity.as_str(),
                f.message
            ));
    }
    let found: std::collections::HashSet<&str> = cases.keys().map(|(file, _)| *file).collect();
    let mut clean: Vec<&str> = outcome
        .files
        .iter()
        .enumerate()
        .filter(|(i, s)| outcome.classes[*i].is_some() && !found.contains(s.display.as_str()))
        .map(|(_, s)| s.display.as_str())
        .collect();
    clean.sort();
    clean.dedup();
    let tests = cases.len() + clean.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"platcheck\" tests=\"{tests}\" failures=\"{}\">",
        cases.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"platcheck\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
        cases.len()
    );
    for ((file, rule), lines) in &cases {
        let meta = crate::catalog::RuleId::parse(rule).map(|r| r.meta());
        let name = meta.map_or(String::new(), |m| m.name.clone());
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{} {}\" file=\"{}\">",
            esc(file),
            rule,
            esc(&name),
            esc(file)
        );
        let _ = writeln!(
            out,
            "      <failure message=\"{} finding{} of {rule}\" type=\"{rule}\">{}</failure>",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            esc(&lines.join("\n"))
        );
        out.push_str("    </testcase>\n");
    }
    for file in clean {
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"platcheck\" file=\"{}\"/>",
            esc(file),
            esc(file)
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The stream tests' outcomes, and one with checked files that are clean
/// (passing cases) beside a file with findings.
fn outcomes() -> Vec<Outcome> {
    let mut all = stream::tests::outcomes();
    let mut o = stream::tests::outcomes().remove(2);
    o.files
        .push(SourceFile::new("b&<c>.sql", "b.sql", "SELECT 1;\n"));
    o.files
        .push(SourceFile::new("a-clean.yaml", "a.yaml", "kind: x\n"));
    o.classes = vec![
        Some(FileClass::Yaml),
        None,
        Some(FileClass::Sql),
        Some(FileClass::Yaml),
    ];
    all.push(o);
    all
}

#[test]
fn streaming_is_byte_identical_to_the_whole_document() {
    for o in outcomes() {
        let want = whole(&o);
        assert_eq!(render(&o), want);
        assert_eq!(stream::tests::written(&Printer::new(&o), &o), want);
    }
    let last = outcomes().pop().unwrap();
    let text = render(&last);
    assert!(text.contains("tests=\"4\" failures=\"2\""), "{text}");
    assert!(
        text.contains("classname=\"b&amp;&lt;c&gt;.sql\" name=\"platcheck\""),
        "{text}"
    );
}
