//! One human report, laid out as miette 7's `GraphicalReportHandler`
//! (unicode theme, no links, one line of context) laid it out: the code
//! line, the message beside the severity icon, the snippets, the help.
//! Prose is wrapped by textwrap with the options the printer gave miette
//! (ASCII spaces only, words never split), or indented without wrapping.
use super::snippet::{self, Label};
use super::theme::{self, Theme};
use crate::finding::Severity;
use crate::source::SourceFile;

pub struct Report<'a> {
    pub severity: Severity,
    /// `ID name`.
    pub code: &'a str,
    pub message: &'a str,
    pub help: &'a str,
    /// The source, its shown name and the labels, when there is a snippet.
    pub snippet: Option<(&'a SourceFile, &'a str, &'a [Label])>,
}

/// Columns to wrap prose at, `None` for no wrapping.
pub fn render(out: &mut String, r: &Report, theme: &Theme, width: Option<usize>) {
    let (paint, icon) = theme.severity(r.severity);
    paint.str(out, r.code);
    out.push_str("\n\n");
    let mut first = String::with_capacity(16);
    first.push_str("  ");
    paint.str(&mut first, icon);
    first.push(' ');
    let mut rest = String::with_capacity(16);
    rest.push_str("  ");
    paint.char(&mut rest, theme::VBAR);
    rest.push(' ');
    wrap(out, r.message, &first, &rest, width);
    out.push('\n');
    if let Some((src, name, labels)) = r.snippet {
        snippet::render(out, src, name, labels, theme);
    }
    let help = theme.help.wrap("  help: ");
    wrap(out, r.help, &help, "        ", width);
    out.push('\n');
}

/// `text` with `first` before its first line and `rest` before the others
/// (miette's `wrap`): filled to `width` by textwrap, or line by line
/// without wrapping, a blank line getting the indent without its
/// trailing spaces.
fn wrap(out: &mut String, text: &str, first: &str, rest: &str, width: Option<usize>) {
    if let Some(width) = width {
        let opts = textwrap::Options::new(width.saturating_sub(2))
            .initial_indent(first)
            .subsequent_indent(rest)
            .break_words(false)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
        out.push_str(&textwrap::fill(text, opts));
        return;
    }
    for (i, line) in text.split_terminator('\n').enumerate() {
        let blank = line.trim().is_empty();
        if i > 0 {
            out.push('\n');
        }
        let indent = if i == 0 { first } else { rest };
        out.push_str(if blank { indent.trim_end() } else { indent });
        out.push_str(line);
    }
    if text.ends_with('\n') {
        out.push('\n');
    }
}
