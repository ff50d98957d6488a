//! Human output through miette: the rule id as the code, a label at the
//! span, the help, and a link to the rule doc. Without colour and at a fixed
//! width it is deterministic, which the snapshots rely on.
use super::escape;
use crate::finding::{Finding, Severity};
use crate::outcome::Outcome;
use crate::source::SourceFile;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::fmt::{self, Write as _};

#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    pub width: usize,
    pub quiet: bool,
}

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
        let start = span.offset().min(src.text.len());
        let end = (span.offset() + span.len()).min(src.text.len());
        let first = src.line_col(start).line.saturating_sub(before).max(1);
        let last = (src.line_col(end).line + after)
            .min(src.line_count())
            .max(first);
        let from = src.line_start(first);
        let to = if last < src.line_count() {
            src.line_start(last + 1)
        } else {
            src.text.len()
        };
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

struct Diag<'a> {
    f: &'a Finding,
    src: Src<'a>,
    url: String,
    /// The message and help with control characters made visible.
    message: String,
    help: String,
    snippet: bool,
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
        Some(Box::new(format!(
            "{} {}",
            self.f.rule,
            self.f.rule.meta().name
        )))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.f.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Notice => miette::Severity::Advice,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = self.help.as_str();
        let sep = if help.is_empty() { "" } else { "\n" };
        Some(Box::new(format!("{help}{sep}docs: {}", self.url)))
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.then_some(&self.src as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.snippet {
            return None;
        }
        let label = match &self.f.pointer {
            Some(p) if !p.is_empty() => format!("{} {}", self.f.severity.as_str(), p),
            _ => self.f.severity.as_str().to_string(),
        };
        let label = escape::controls(&label).into_owned();
        Some(Box::new(std::iter::once(LabeledSpan::new(
            Some(label),
            self.f.start,
            self.f.end - self.f.start,
        ))))
    }
}

pub fn render(outcome: &Outcome, style: Style) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_context_lines(1);
    let mut out = String::new();
    if !style.quiet {
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
    let files: std::collections::HashMap<&str, &SourceFile> = outcome
        .files
        .iter()
        .map(|f| (f.display.as_str(), f))
        .collect();
    let empty = SourceFile::new("", "", "");
    // Sources with control characters, made printable once per file.
    let mut shown: std::collections::HashMap<&str, SourceFile> = std::collections::HashMap::new();
    for f in &outcome.findings {
        let raw = files.get(f.file.as_str()).copied().unwrap_or(&empty);
        let src: &SourceFile = match escape::controls_in_place(&raw.text) {
            std::borrow::Cow::Borrowed(_) => raw,
            std::borrow::Cow::Owned(text) => shown
                .entry(raw.display.as_str())
                .or_insert_with(|| SourceFile::new(&raw.display, &raw.path, &text)),
        };
        let _ = writeln!(
            out,
            "{}:{}:{}: {} [{}]",
            escape::file_name(&f.file),
            f.line,
            f.column,
            f.severity.as_str(),
            f.rule
        );
        let diag = Diag {
            f,
            src: Src(src),
            url: f.rule.url(),
            message: escape::controls(&f.message).into_owned(),
            help: escape::controls(f.help.as_deref().unwrap_or("")).into_owned(),
            snippet: snippet_fits(src, f),
        };
        let _ = handler.render_report(&mut out, &diag);
        out.push('\n');
    }
    let s = &outcome.summary;
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
    out
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
