//! Source text and the mapping between byte offsets and 1-based line/column.
//!
//! Columns count Unicode scalar values (output.md), and a `\r\n` line ending
//! never counts as part of the line, so CRLF files report the same columns as
//! LF files.
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What kind of input a file is, which decides how it is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileClass {
    /// A YAML file: a contract when it carries `apiVersion: platcheck/…`.
    Yaml,
    Sql,
    Markdown,
}

/// The first line of a runbook `platcheck init` wrote as a placeholder: the
/// launch report treats a runbook starting with it as missing evidence.
pub const PLACEHOLDER_RUNBOOK: &str = "<!-- TODO(platcheck init): placeholder runbook; write the real procedure, then delete this line -->";

/// The path as reported: relative to `cwd` when below it, `/`-separated.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let rel = path.strip_prefix(cwd).unwrap_or(path);
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// Lexical normalisation (`a/./b/../c` -> `a/c`) without touching the disk:
/// paths may name files that do not exist yet, or exist only in git.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A half-open byte range into a [`SourceFile`]'s text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub const fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// 1-based line and column (column in Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// One input file as text. `display` is the path as reported: relative to
/// the directory platcheck was run from, with `/` separators.
#[derive(Debug)]
pub struct SourceFile {
    pub display: String,
    pub path: std::path::PathBuf,
    pub text: Arc<str>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Builds a source from decoded text. A leading UTF-8 BOM is dropped so
    /// that the first visible character is column 1.
    pub fn new(
        display: impl Into<String>,
        path: impl Into<std::path::PathBuf>,
        text: &str,
    ) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            display: display.into(),
            path: path.into(),
            text: Arc::from(text),
            line_starts,
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The text of a 1-based line without its line ending.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e - 1);
        let s = &self.text[start..end.max(start)];
        s.strip_suffix('\r').unwrap_or(s)
    }

    /// Byte offset of the start of a 1-based line.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }

    /// 1-based line/column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[idx];
        let mut prefix = &self.text[start..offset];
        // The `\r` of a CRLF is not a column of its own.
        if prefix.ends_with('\r') && self.text[offset..].starts_with('\n') {
            prefix = &prefix[..prefix.len() - 1];
        }
        LineCol {
            line: idx + 1,
            column: prefix.chars().count() + 1,
        }
    }

    /// Byte offset of a 1-based line/column (clamped to the line).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        if line == 0 || line > self.line_starts.len() {
            return self.text.len();
        }
        let start = self.line_starts[line - 1];
        let text = self.line_text(line);
        let within = text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| i);
        start + within
    }

    /// The span covering a whole 1-based line (without its ending).
    pub fn line_span(&self, line: usize) -> Span {
        let start = self.line_start(line);
        Span::new(start, start + self.line_text(line).len())
    }

    fn floor_char_boundary(&self, mut i: usize) -> usize {
        while i > 0 && !self.text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_columns_match_lf() {
        let lf = SourceFile::new("a", "a", "ab: 1\nc: é2\n");
        let crlf = SourceFile::new("a", "a", "ab: 1\r\nc: é2\r\n");
        let pos_lf = lf.text.find('2').unwrap();
        let pos_crlf = crlf.text.find('2').unwrap();
        assert_eq!(lf.line_col(pos_lf), LineCol { line: 2, column: 5 });
        assert_eq!(crlf.line_col(pos_crlf), LineCol { line: 2, column: 5 });
        assert_eq!(crlf.line_text(1), "ab: 1");
        assert_eq!(crlf.offset_of(2, 5), pos_crlf);
    }

    #[test]
    fn bom_is_not_a_column() {
        let s = SourceFile::new("a", "a", "\u{feff}key: v\n");
        assert_eq!(s.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(s.line_text(1), "key: v");
    }

    #[test]
    fn end_of_line_crlf_is_last_column_plus_one() {
        let s = SourceFile::new("a", "a", "ab\r\ncd");
        assert_eq!(s.line_col(2), LineCol { line: 1, column: 3 });
        assert_eq!(s.line_col(3), LineCol { line: 1, column: 3 });
        assert_eq!(s.line_col(4), LineCol { line: 2, column: 1 });
    }
}
