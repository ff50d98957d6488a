//! `--format junit`: one test case per file × rule that found something
//! (a failure listing its findings), and one passing case per clean file.
//! Streamed file by file; the header counts the cases, so `output::write`
//! first prints into nothing to learn whether a finding will be replaced by
//! a PC000 (which would change the counts after they were written).
use super::stream::{self, Stream};
use crate::finding::Finding;
use crate::outcome::{Outcome, Summary};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

pub struct Printer<'o> {
    /// Test cases that fail: the distinct (file, rule) pairs.
    failures: usize,
    /// Checked files without findings, sorted: a passing case each.
    clean: Vec<&'o str>,
}

impl<'o> Printer<'o> {
    pub fn new(outcome: &'o Outcome) -> Printer<'o> {
        let mut failures = 0;
        let mut found: HashSet<&str> = HashSet::new();
        for range in stream::files(&outcome.findings) {
            let fs = &outcome.findings[range];
            found.insert(&fs[0].file);
            failures += fs.iter().map(|f| f.rule).collect::<HashSet<_>>().len();
        }
        let mut clean: Vec<&str> = outcome
            .files
            .iter()
            .enumerate()
            .filter(|(i, s)| outcome.classes[*i].is_some() && !found.contains(s.display.as_str()))
            .map(|(_, s)| s.display.as_str())
            .collect();
        clean.sort();
        clean.dedup();
        Printer { failures, clean }
    }
}

impl Stream for Printer<'_> {
    fn head(&self, _: &Outcome, out: &mut String) {
        let tests = self.failures + self.clean.len();
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"platcheck\" tests=\"{tests}\" failures=\"{}\">",
            self.failures
        );
        let _ = writeln!(
            out,
            "  <testsuite name=\"platcheck\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
            self.failures
        );
    }
    fn file(&self, _: &Outcome, fs: &[Finding], _: Option<usize>, _: usize, out: &mut String) {
        let Some(first) = fs.first() else {
            return;
        };
        let file = esc(&first.file);
        let mut cases: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for f in fs {
            cases.entry(f.rule.as_str()).or_default().push(format!(
                "{}:{}:{}: {}: {}",
                f.file,
                f.line,
                f.column,
                f.severity.as_str(),
                f.message
            ));
        }
        for (rule, lines) in &cases {
            let meta = crate::catalog::RuleId::parse(rule).map(|r| r.meta());
            let name = meta.map_or(String::new(), |m| m.name.clone());
            let _ = writeln!(
                out,
                "    <testcase classname=\"{file}\" name=\"{} {}\" file=\"{file}\">",
                rule,
                esc(&name),
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
    }
    fn tail(&self, _: &Outcome, _: &Summary, _: usize, out: &mut String) {
        for file in &self.clean {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"platcheck\" file=\"{}\"/>",
                esc(file),
                esc(file)
            );
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
    }
}

pub fn render(outcome: &Outcome) -> String {
    stream::to_string(&Printer::new(outcome), outcome)
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

#[cfg(test)]
#[path = "junit_tests.rs"]
mod tests;
