//! The oracle of `human_tests`: the human printer as it was when miette's
//! `GraphicalReportHandler` drew the reports (its `file` part; head, tail,
//! groups and header are the printer's own). The printer's renderer must
//! produce these bytes, so this stays as it was, not as it would be written.
use super::escape;
use super::human::{Style, groups, header};
use super::snippet::{Window, window};
use super::stream::{self, Stream};
use crate::finding::{Finding, Severity};
use crate::outcome::{Outcome, Summary};
use crate::source::SourceFile;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::collections::HashMap;
use std::fmt::{self, Write as _};

/// miette reads source through our line index, so rendering a finding costs
/// the size of its lines, not of its file (no quadratic blow-up on big files).
struct Src<'a>(&'a SourceFile);

impl SourceCode for Src<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let src = self.0;
        let Window {
            first,
            last,
            from,
            to,
        } = window(src, span.offset(), span.len(), before, after);
        Ok(Box::new(MietteSpanContents::new_named(
            escape::file_name(&src.display).into_owned(),
            &src.text.as_bytes()[from..to],
            (from..to).into(),
            first - 1,
            0,
            last - first + 1,
        )))
    }
}

/// Longest source line shown in a snippet, in bytes. miette pads to the
/// column with a format width, which panics past 65,535; a line this long
/// is unreadable in a terminal anyway, so the finding is printed without it.
const MAX_SNIPPET_LINE: usize = 4096;

/// One finding, or several of one rule on one contract (five EV010 clauses,
/// four EV071 consumers) shown as one report with a numbered label each.
struct Diag<'a> {
    fs: Vec<&'a Finding>,
    src: Src<'a>,
    /// The message and helps with control characters made visible.
    message: String,
    helps: Vec<String>,
    url: String,
    snippet: bool,
}

impl<'a> Diag<'a> {
    fn new(fs: Vec<&'a Finding>, src: &'a SourceFile) -> Diag<'a> {
        let f = fs[0];
        let message = match (&f.contract, fs.len()) {
            (Some(c), n) if n > 1 => {
                let mut m = format!("{n} findings on {} {}:", c.kind, c.name);
                for (i, g) in fs.iter().enumerate() {
                    let _ = write!(m, "\n({}) {}", i + 1, g.message);
                }
                m
            }
            _ => f.message.clone(),
        };
        // Several helps that differ are each shown; equal ones once.
        let mut helps: Vec<String> = Vec::new();
        for g in &fs {
            if let Some(h) = g.help.as_deref().filter(|h| !h.is_empty()) {
                let h = escape::controls(h).into_owned();
                if !helps.contains(&h) {
                    helps.push(h);
                }
            }
        }
        Diag {
            url: f.rule.url(),
            snippet: fs.iter().all(|g| snippet_fits(src, g)),
            fs,
            src: Src(src),
            message: escape::controls(&message).into_owned(),
            helps,
        }
    }
    fn first(&self) -> &Finding {
        self.fs[0]
    }
}

impl fmt::Debug for Diag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for Diag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for Diag<'_> {}

impl Diagnostic for Diag<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let rule = self.first().rule;
        Some(Box::new(format!("{} {}", rule, rule.meta().name)))
    }
    fn severity(&self) -> Option<miette::Severity> {
        let worst = self.fs.iter().map(|f| f.severity).max()?;
        Some(match worst {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Notice => miette::Severity::Advice,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let mut text = self.helps.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        Some(Box::new(format!("{text}docs: {}", self.url)))
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.then_some(&self.src as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.snippet {
            return None;
        }
        // Which findings share a label, and its text, are the printer's
        // (not under test here): only the drawing is compared.
        Some(Box::new(
            super::human::labels(&self.fs)
                .into_iter()
                .map(|l| LabeledSpan::new(Some(l.text), l.offset, l.len)),
        ))
    }
}

/// The human printer, for `stream`: the handlers are built once per run
/// (as are the file index and the header), the findings rendered file by file.
pub struct Printer<'o> {
    new: super::human::Printer<'o>,
    style: Style,
    handler: GraphicalReportHandler,
    /// A unified diff (MR004) is shown as the diff tool prints it.
    verbatim: GraphicalReportHandler,
    files: HashMap<&'o str, &'o SourceFile>,
}

impl<'o> Printer<'o> {
    pub fn new(outcome: &'o Outcome, style: Style) -> Printer<'o> {
        let theme = if style.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        // Words are never split (not at hyphens, not after a `/` in a path): a
        // line that cannot fit runs long instead.
        let base = GraphicalReportHandler::new_themed(theme)
            .with_links(false)
            .with_context_lines(1)
            .with_break_words(false)
            .with_word_separator(textwrap::WordSeparator::AsciiSpace)
            .with_word_splitter(textwrap::WordSplitter::NoHyphenation);
        let handler = if style.width == 0 {
            base.clone().with_wrap_lines(false)
        } else {
            base.clone().with_width(style.width)
        };
        Printer {
            new: super::human::Printer::new(outcome, style),
            style,
            handler,
            verbatim: base.with_wrap_lines(false),
            files: outcome
                .files
                .iter()
                .map(|f| (f.display.as_str(), f))
                .collect(),
        }
    }
}

impl Stream for Printer<'_> {
    fn head(&self, outcome: &Outcome, out: &mut String) {
        self.new.head(outcome, out)
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
        let raw = self
            .files
            .get(first.file.as_str())
            .copied()
            .unwrap_or(&empty);
        let shown = super::human::printable(raw);
        let src = shown.as_ref().unwrap_or(raw);
        for group in groups(findings) {
            let _ = writeln!(out, "{}", header(&group, self.style.color));
            let is_diff = group
                .iter()
                .any(|g| g.help.as_deref().is_some_and(|h| h.contains("\n@@ ")));
            let diag = Diag::new(group, src);
            let h = if is_diff {
                &self.verbatim
            } else {
                &self.handler
            };
            let _ = h.render_report(out, &diag);
            out.push('\n');
        }
    }
    fn tail(&self, o: &Outcome, s: &Summary, written: usize, out: &mut String) {
        self.new.tail(o, s, written, out)
    }
}

pub fn render(outcome: &Outcome, style: Style) -> String {
    stream::to_string(&Printer::new(outcome, style), outcome)
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
