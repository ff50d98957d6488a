//! Human output: per finding (or group of findings) a `file:line:col:`
//! header, then a report laid out as miette's graphical reports are (the
//! rule id as the code, a label at the span, the help, a link to the rule
//! doc), drawn by `diag` and `snippet`. Without colour and at a fixed width
//! it is deterministic, which the snapshots rely on.
use super::diag::{self, Report};
use super::escape;
use super::snippet::{self, Label};
use super::stream::{self, Stream};
use super::theme::Theme;
use crate::finding::{Finding, Severity};
use crate::outcome::{Outcome, Summary};
use crate::source::SourceFile;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::rc::Rc;

#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    /// Columns to wrap prose at; 0: never wrap (output that is not a terminal).
    pub width: usize,
    pub quiet: bool,
}

/// Longest source line shown in a snippet, in bytes. A line this long is
/// unreadable in a terminal anyway (and miette, which drew the snippets
/// once, panicked past column 65,535), so the finding is printed without it.
const MAX_SNIPPET_LINE: usize = 4096;

/// The parts of the report of one group: one finding, or several of one
/// rule on one contract (five EV010 clauses, four EV071 consumers) shown as
/// one report with a numbered label each. Text is made printable here.
struct Parts {
    severity: Severity,
    code: String,
    message: String,
    help: String,
    /// `None` when a line to show is too long.
    labels: Option<Vec<Label>>,
}

fn parts(fs: &[&Finding], src: &SourceFile) -> Parts {
    let f = fs[0];
    let message = match (&f.contract, fs.len()) {
        (Some(c), n) if n > 1 => {
            let mut m = format!("{n} findings on {} {}:", c.kind, c.name);
            for (i, g) in fs.iter().enumerate() {
                let _ = write!(m, "\n({}) {}", i + 1, g.message);
            }
            escape::controls(&m).into_owned()
        }
        _ => escape::controls(&f.message).into_owned(),
    };
    // Several helps that differ are each shown; equal ones once.
    let mut helps: Vec<String> = Vec::new();
    for g in fs {
        if let Some(h) = g.help.as_deref().filter(|h| !h.is_empty()) {
            let h = escape::controls(h).into_owned();
            if !helps.contains(&h) {
                helps.push(h);
            }
        }
    }
    let mut help = helps.join("\n");
    if !help.is_empty() {
        help.push('\n');
    }
    help.push_str("docs: ");
    help.push_str(&f.rule.url());
    let labels = fs.iter().all(|g| snippet_fits(src, g)).then(|| labels(fs));
    Parts {
        severity: fs.iter().map(|g| g.severity).max().unwrap_or(f.severity),
        code: [f.rule.as_str(), &f.rule.meta().name].join(" "),
        message,
        help,
        labels,
    }
}

/// A label per span; findings at one span share one: `(1, 2, 3) error
/// /pointer`.
pub(super) fn labels(fs: &[&Finding]) -> Vec<Label> {
    let numbered = fs.len() > 1;
    let mut labels: Vec<(usize, usize, String, Vec<usize>)> = Vec::new();
    for (i, f) in fs.iter().enumerate() {
        let text = match &f.pointer {
            Some(p) if !p.is_empty() => format!("{} {}", f.severity.as_str(), p),
            _ => f.severity.as_str().to_string(),
        };
        let text = escape::controls(&text).into_owned();
        match labels
            .iter_mut()
            .find(|(s, e, t, _)| *s == f.start && *e == f.end && *t == text)
        {
            Some(l) => l.3.push(i + 1),
            None => labels.push((f.start, f.end, text, vec![i + 1])),
        }
    }
    labels
        .into_iter()
        .map(|(start, end, text, ns)| {
            let text = if numbered {
                let ns: Vec<String> = ns.iter().map(usize::to_string).collect();
                format!("({}) {text}", ns.join(", "))
            } else {
                text
            };
            Label {
                offset: start,
                len: end.saturating_sub(start),
                text,
            }
        })
        .collect()
}

/// The file with its control characters made printable, when it has any
/// (copied once per file, not per finding).
pub(super) fn printable(raw: &SourceFile) -> Option<SourceFile> {
    match escape::controls_in_place(&raw.text) {
        std::borrow::Cow::Owned(text) => Some(SourceFile::new(&raw.display, &raw.path, &text)),
        std::borrow::Cow::Borrowed(_) => None,
    }
}

/// Findings in print order, those of one rule on one contract together
/// (at the place of the first).
pub(super) fn groups(findings: &[Finding]) -> Vec<Vec<&Finding>> {
    let mut out: Vec<Vec<&Finding>> = Vec::new();
    let mut at: HashMap<(&str, crate::RuleId, &str, &str), usize> = HashMap::new();
    for f in findings {
        let Some(c) = &f.contract else {
            out.push(vec![f]);
            continue;
        };
        let key = (f.file.as_str(), f.rule, c.kind.as_str(), c.name.as_str());
        match at.get(&key) {
            Some(&i) => out[i].push(f),
            None => {
                at.insert(key, out.len());
                out.push(vec![f]);
            }
        }
    }
    out
}

/// The human printer, for `stream`: the theme is chosen once per run (as
/// are the file index and the header), the findings rendered file by file.
pub struct Printer<'o> {
    style: Style,
    theme: Theme,
    files: HashMap<&'o str, &'o SourceFile>,
    /// The printable copy of each file (`printable`), made at its first
    /// block: a file written in blocks is scanned for controls once.
    shown: RefCell<HashMap<&'o str, Rc<Option<SourceFile>>>>,
}

impl<'o> Printer<'o> {
    pub fn new(outcome: &'o Outcome, style: Style) -> Printer<'o> {
        Printer {
            style,
            theme: Theme::new(style.color),
            files: outcome
                .files
                .iter()
                .map(|f| (f.display.as_str(), f))
                .collect(),
            shown: RefCell::default(),
        }
    }
}

impl Stream for Printer<'_> {
    fn head(&self, outcome: &Outcome, out: &mut String) {
        if !self.style.quiet {
            let _ = writeln!(
                out,
                "platcheck {}: today is {} ({})\n",
                env!("CARGO_PKG_VERSION"),
                outcome.today,
                outcome.today_source.as_str()
            );
            for note in &outcome.notes {
                let _ = writeln!(out, "note: {note}\n");
            }
        }
    }
    fn file(
        &self,
        _: &Outcome,
        findings: &[Finding],
        _: Option<usize>,
        _: usize,
        out: &mut String,
    ) {
        let empty = SourceFile::new("", "", "");
        let Some(first) = findings.first() else {
            return;
        };
        let (raw, shown) = match self.files.get_key_value(first.file.as_str()) {
            Some((&key, &raw)) => {
                let shown = self
                    .shown
                    .borrow_mut()
                    .entry(key)
                    .or_insert_with(|| Rc::new(printable(raw)))
                    .clone();
                (raw, shown)
            }
            None => (&empty, Rc::new(None)),
        };
        let src = shown.as_ref().as_ref().unwrap_or(raw);
        let name = escape::file_name(&src.display);
        for group in groups(findings) {
            push_header(out, &group, self.style.color);
            out.push('\n');
            // A unified diff (MR004) is shown as the diff tool prints it.
            let is_diff = group
                .iter()
                .any(|g| g.help.as_deref().is_some_and(|h| h.contains("\n@@ ")));
            let width = (self.style.width > 0 && !is_diff).then_some(self.style.width);
            let p = parts(&group, src);
            let report = Report {
                severity: p.severity,
                code: &p.code,
                message: &p.message,
                help: &p.help,
                snippet: p.labels.as_deref().map(|l| (src, &*name, l)),
            };
            diag::render(out, &report, &self.theme, width);
            out.push('\n');
        }
    }
    fn in_blocks(&self, file: &[Finding]) -> bool {
        // Only findings on a contract are grouped (across the whole file);
        // any other finding is a report of its own.
        file.iter().all(|f| f.contract.is_none())
    }
    fn tail(&self, _: &Outcome, s: &Summary, _: usize, out: &mut String) {
        let _ = writeln!(
            out,
            "{} file{} checked: {} error{}, {} warning{}, {} notice{} ({} suppressed)",
            s.files,
            plural(s.files),
            s.errors,
            plural(s.errors),
            s.warnings,
            plural(s.warnings),
            s.notices,
            plural(s.notices),
            s.suppressed
        );
    }
}

pub fn render(outcome: &Outcome, style: Style) -> String {
    stream::to_string(&Printer::new(outcome, style), outcome)
}

/// `file:line:col: severity [ID]` at the first finding of a group, with
/// the group's worst severity (as miette's report under it), in its colour
/// when colour is on.
#[cfg(test)]
pub(super) fn header(group: &[&Finding], color: bool) -> String {
    let mut out = String::new();
    push_header(&mut out, group, color);
    out
}

/// `header`, written into `out` (five `format!`s a finding, before).
fn push_header(out: &mut String, group: &[&Finding], color: bool) {
    let f = group[0];
    let severity = group.iter().map(|g| g.severity).max().unwrap_or(f.severity);
    if color {
        out.push_str("\x1b[1m");
    }
    out.push_str(&escape::file_name(&f.file));
    out.push(':');
    snippet::number(out, f.line, 0);
    out.push(':');
    snippet::number(out, f.column, 0);
    out.push(':');
    if color {
        let code = match severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Notice => "1;36",
        };
        out.push_str("\x1b[0m \x1b[");
        out.push_str(code);
        out.push('m');
    } else {
        out.push(' ');
    }
    out.push_str(severity.as_str());
    out.push_str(" [");
    out.push_str(f.rule.as_str());
    out.push(']');
    if group.len() > 1 {
        out.push_str(" ×");
        snippet::number(out, group.len(), 0);
    }
    if color {
        out.push_str("\x1b[0m");
    }
}

/// Whether the finding's lines, with a line of context either side, are
/// short enough to show (see `MAX_SNIPPET_LINE`).
fn snippet_fits(src: &SourceFile, f: &Finding) -> bool {
    if src.text.is_empty() {
        return false;
    }
    let first = f.line.saturating_sub(1).max(1);
    let last = (f.end_line.max(f.line) + 1).min(src.line_count());
    (first..=last).all(|l| src.line_text(l).len() <= MAX_SNIPPET_LINE)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_of_is_line_col_without_the_column() {
        use super::super::snippet::line_of;
        let text = "a\r\nbé\rc\n\nd é\n";
        let src = super::SourceFile::new("f", "f", text);
        for at in 0..=text.len() {
            assert_eq!(line_of(&src, at), src.line_col(at).line, "at {at}");
        }
        let empty = super::SourceFile::new("f", "f", "");
        assert_eq!(line_of(&empty, 0), 1);
    }
}
