//! `--format github`: workflow commands that GitHub turns into annotations,
//! errors first. GitHub shows at most 10 annotations per level per step and
//! drops the rest silently, so a level with more findings gets 9 of them and
//! a tenth annotation, at the same level, saying how many more there are and
//! where; the step summary (Markdown) lists counts by rule and the first 50
//! findings.
use super::escape;
use crate::finding::{Finding, Severity};
use crate::outcome::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub const PER_LEVEL: usize = 10;
pub const SUMMARY_ROWS: usize = 50;

/// Escaping of workflow-command data (the message). Controls are made
/// visible first: an ESC in a contract key must not reach the log.
fn data(s: &str) -> String {
    escape::controls(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of workflow-command properties (file, title).
fn prop(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(f: &Finding) -> &'static str {
    match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Notice => "notice",
    }
}

pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Notice] {
        let of_level: Vec<&Finding> = outcome
            .findings
            .iter()
            .filter(|f| f.severity == sev)
            .collect();
        let shown = if of_level.len() > PER_LEVEL {
            PER_LEVEL - 1
        } else {
            of_level.len()
        };
        for f in of_level.iter().take(shown) {
            let mut msg = f.message.clone();
            if let Some(h) = &f.help {
                msg.push_str("\nhelp: ");
                msg.push_str(h);
            }
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                command(f),
                prop(&f.file),
                f.line,
                f.column,
                f.end_line,
                f.end_column,
                prop(&format!("{} {}", f.rule, f.rule.meta().name)),
                data(&msg)
            );
        }
        let rest = of_level.len() - shown;
        if rest > 0 {
            let _ = writeln!(
                out,
                "::{} title=platcheck::{rest} more {} {} not annotated (GitHub shows {PER_LEVEL} per level); see the step summary or the SARIF report",
                command(of_level[0]),
                sev.as_str(),
                if rest == 1 {
                    "finding is"
                } else {
                    "findings are"
                }
            );
        }
    }
    let s = &outcome.summary;
    let _ = writeln!(
        out,
        "platcheck: {} files checked: {} errors, {} warnings, {} notices ({} suppressed); today is {}",
        s.files, s.errors, s.warnings, s.notices, s.suppressed, outcome.today
    );
    out
}

/// The Markdown appended to `$GITHUB_STEP_SUMMARY`.
pub fn step_summary(outcome: &Outcome) -> String {
    let s = &outcome.summary;
    let mut out = String::from("## platcheck\n\n");
    let _ = writeln!(
        out,
        "{} files checked — **{} errors**, {} warnings, {} notices ({} suppressed). Today: {}.\n",
        s.files, s.errors, s.warnings, s.notices, s.suppressed, outcome.today
    );
    if outcome.findings.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    let mut by_rule: BTreeMap<_, (usize, Severity)> = BTreeMap::new();
    for f in &outcome.findings {
        let e = by_rule.entry(f.rule).or_insert((0, f.severity));
        e.0 += 1;
        e.1 = e.1.max(f.severity);
    }
    out.push_str("| rule | name | severity | findings |\n|---|---|---|---:|\n");
    for (rule, (n, sev)) in &by_rule {
        let _ = writeln!(
            out,
            "| [{rule}]({}) | {} | {} | {n} |",
            rule.url(),
            rule.meta().name,
            sev.as_str()
        );
    }
    let _ = writeln!(
        out,
        "\n### Findings{}\n",
        if outcome.findings.len() > SUMMARY_ROWS {
            format!(" (first {SUMMARY_ROWS} of {})", outcome.findings.len())
        } else {
            String::new()
        }
    );
    out.push_str("| location | rule | message |\n|---|---|---|\n");
    for f in outcome.findings.iter().take(SUMMARY_ROWS) {
        let _ = writeln!(
            out,
            "| <code>{}:{}:{}</code> | [{}]({}) | {} |",
            html(&f.file),
            f.line,
            f.column,
            f.rule,
            f.rule.url(),
            cell(&f.message)
        );
    }
    out
}

/// How much of a message a summary cell shows: GitHub refuses a step
/// summary over 1 MiB, and 50 rows of a 100 KB token would pass that.
const MAX_CELL: usize = 1000;

/// A table cell of the step summary: one line, no raw HTML, no `|`, no
/// Markdown but the message's own code spans (it quotes keys as code; the
/// text of a span is literal, so only its `|` needs escaping there).
fn cell(s: &str) -> String {
    let s = if s.len() > MAX_CELL {
        let mut cut = MAX_CELL;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}… ({} bytes in all)", &s[..cut], s.len())
    } else {
        s.to_string()
    };
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(open) = rest.find('`') {
        out.push_str(&html(&rest[..open]));
        let after = &rest[open..];
        let run = after.len() - after.trim_start_matches('`').len();
        let body = &after[run..];
        match closing(body, run) {
            Some(end) => {
                let span = escape::one_line(&body[..end]).replace('|', "\\|");
                let ticks = &after[..run];
                let _ = write!(out, "{ticks}{span}{ticks}");
                rest = &body[end + run..];
            }
            None => {
                // No closing run: the backticks are literal text.
                out.push_str(&"\\`".repeat(run));
                rest = body;
            }
        }
    }
    out.push_str(&html(rest));
    out
}

/// Where a code span's body ends: the next run of exactly `run` backticks
/// (CommonMark's rule), as a byte offset into `body`.
fn closing(body: &str, run: usize) -> Option<usize> {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let n = b[i..].iter().take_while(|c| **c == b'`').count();
            if n == run {
                return Some(i);
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// Text made inert for Markdown with HTML: entities for `&<>"'` and `|`,
/// a backslash before what makes emphasis, links, images, code or
/// strike-through (a file named `![](https://…)` must not load an image),
/// line breaks as spaces, controls escaped. A file name can hold any of them.
fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '|' => out.push_str("&#124;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    escape::one_line(&out)
}

#[cfg(test)]
mod tests {
    use super::{MAX_CELL, cell, html};

    #[test]
    fn markdown_in_names_is_inert() {
        assert_eq!(
            html("![x](https://t/p.png) *a* _b_ ~c~ `d` <i> a|b \\"),
            "\\!\\[x\\](https://t/p.png) \\*a\\* \\_b\\_ \\~c\\~ \\`d\\` &lt;i&gt; a&#124;b \\\\"
        );
    }

    #[test]
    fn messages_keep_their_code_spans_literal() {
        assert_eq!(
            cell("key `a|<b>*` is [unknown]"),
            "key `a\\|<b>*` is \\[unknown\\]"
        );
        assert_eq!(cell("``a`b`` c"), "``a`b`` c");
        // An unclosed span is text, its backticks escaped.
        assert_eq!(cell("a ` b <c>"), "a \\` b &lt;c&gt;");
        assert_eq!(cell("`x\ny`"), "`x y`");
    }

    #[test]
    fn long_messages_are_cut_with_their_size() {
        let long = format!("token `{}`", "é".repeat(100_000));
        let c = cell(&long);
        assert!(c.len() < MAX_CELL + 100, "{}", c.len());
        assert!(
            c.ends_with(&format!("… ({} bytes in all)", long.len())),
            "{c}"
        );
    }
}
