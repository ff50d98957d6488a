//! `--format junit`: one test case per file × rule that found something
//! (a failure listing its findings), and one passing case per clean file.
use crate::outcome::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub fn render(outcome: &Outcome) -> String {
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

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // XML 1.0 forbids most control characters even when escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}
