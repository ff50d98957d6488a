//! Source text and the mapping between byte offsets and 1-based line/column.
//!
//! Columns count Unicode scalar values (output.md), and a `\r\n` line ending
//! never counts as part of the line, so CRLF files report the same columns as
//! LF files.
use std::path::{Path, PathBuf};

mod text;
pub use text::Text;

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
    let s = slashes(&rel.to_string_lossy());
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// `/`-separated. Only on Windows is `\` a separator; elsewhere it is a
/// character a file name may hold (`a\b.sql` is one file, not `a/b.sql`).
pub fn slashes(path: &str) -> String {
    if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_string()
    }
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
    pub text: Text,
    /// Built on the first position asked for: a run that names one file
    /// loads every file of the repository for context, and most of them
    /// never get a finding or a suppression looked up.
    index: std::sync::OnceLock<LineIndex>,
}

#[derive(Debug)]
struct LineIndex {
    line_starts: Vec<usize>,
    /// Characters before every `MARK_STEP`th byte, so that a column on a
    /// very long line (60,000 statements on one line) costs a lookup plus
    /// at most `MARK_STEP` bytes, not a count from the start of the line.
    char_marks: Vec<usize>,
}

const MARK_STEP: usize = 1024;

/// UTF-8 bytes that start a character (not continuation bytes).
fn count_chars(b: &[u8]) -> usize {
    b.iter().filter(|c| (**c as i8) >= -0x40).count()
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
        SourceFile {
            display: display.into(),
            path: path.into(),
            index: std::sync::OnceLock::new(),
            text: Text::from(text),
        }
    }

    /// A source whose text is part of a larger shared buffer (the contract
    /// cache's texts), not copied out of it.
    pub fn shared(display: impl Into<String>, path: impl Into<PathBuf>, text: Text) -> Self {
        let text = text.without_bom();
        SourceFile {
            display: display.into(),
            path: path.into(),
            index: std::sync::OnceLock::new(),
            text,
        }
    }

    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex {
            line_starts: line_starts(&self.text),
            char_marks: std::iter::once(0)
                .chain(self.text.as_bytes().chunks(MARK_STEP).scan(0, |n, chunk| {
                    *n += count_chars(chunk);
                    Some(*n)
                }))
                .collect(),
        })
    }
}

/// Where each line starts. LF, CRLF and a lone CR (classic Mac OS, and what
/// PostgreSQL's scanner and YAML both read as a line break) each end a line.
pub fn line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = vec![0];
    for (i, c) in b.iter().enumerate() {
        if *c == b'\n' || (*c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            out.push(i + 1);
        }
    }
    out
}

impl SourceFile {
    pub fn line_count(&self) -> usize {
        self.index().line_starts.len()
    }

    /// The text of a 1-based line without its line ending.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.index().line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .index()
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e - 1);
        let s = &self.text[start..end.max(start)];
        s.strip_suffix('\r').unwrap_or(s)
    }

    /// Byte offset of the start of a 1-based line.
    pub fn line_start(&self, line: usize) -> usize {
        self.index()
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }

    /// 1-based line/column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let idx = match self.index().line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.index().line_starts[idx];
        let mut end = offset;
        // The `\r` of a CRLF is not a column of its own.
        if self.text[start..offset].ends_with('\r') && self.text[offset..].starts_with('\n') {
            end -= 1;
        }
        // A short line is counted directly; the marks serve long ones.
        let column = if end - start <= MARK_STEP {
            count_chars(&self.text.as_bytes()[start..end])
        } else {
            self.chars_before(end) - self.chars_before(start)
        };
        LineCol {
            line: idx + 1,
            column: column + 1,
        }
    }

    /// How many characters precede byte `at` (a char boundary).
    fn chars_before(&self, at: usize) -> usize {
        let mark = at / MARK_STEP;
        let base = self.index().char_marks.get(mark).copied().unwrap_or(0);
        base + count_chars(&self.text.as_bytes()[mark * MARK_STEP..at])
    }

    /// Byte offset of a 1-based line/column (clamped to the line). Found
    /// from the nearest character mark, so a column far along a very long
    /// line costs a binary search and at most `MARK_STEP` bytes.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        if line == 0 || line > self.index().line_starts.len() {
            return self.text.len();
        }
        let start = self.index().line_starts[line - 1];
        let end = start + self.line_text(line).len();
        let want = self
            .chars_before(start)
            .saturating_add(column.saturating_sub(1));
        // The last mark with no more than `want` characters before it: the
        // wanted character starts at or after it.
        let mark = self
            .index()
            .char_marks
            .partition_point(|&n| n <= want)
            .saturating_sub(1);
        let (mut at, mut n) = if mark * MARK_STEP > start {
            (mark * MARK_STEP, self.index().char_marks[mark])
        } else {
            (start, self.chars_before(start))
        };
        let b = self.text.as_bytes();
        while at < end {
            if (b[at] as i8) >= -0x40 {
                if n == want {
                    return at;
                }
                n += 1;
            }
            at += 1;
        }
        end
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

    #[test]
    fn a_lone_cr_ends_a_line() {
        let s = SourceFile::new("a", "a", "a: 1\rbc: 2\r\rd: é3\r\ne");
        assert_eq!(s.line_count(), 5);
        assert_eq!(s.line_text(2), "bc: 2");
        assert_eq!(s.line_text(3), "");
        assert_eq!(s.line_text(4), "d: é3");
        let three = s.text.find('3').unwrap();
        assert_eq!(s.line_col(three), LineCol { line: 4, column: 5 });
        assert_eq!(s.offset_of(4, 5), three);
        assert_eq!(s.line_col(s.text.len()), LineCol { line: 5, column: 2 });
    }

    #[test]
    fn offset_of_inverts_line_col_everywhere() {
        let text = format!(
            "é\r\n{}x\r{}\n\nend",
            "aé€😀".repeat(700),
            "b".repeat(MARK_STEP * 3)
        );
        let s = SourceFile::new("a", "a", &text);
        for (at, _) in s.text.char_indices() {
            let lc = s.line_col(at);
            if s.text[at..].starts_with('\r') || s.text[at..].starts_with('\n') {
                continue;
            }
            assert_eq!(s.offset_of(lc.line, lc.column), at, "{at} {lc:?}");
        }
        // Past the end of a line: clamped to it.
        assert_eq!(s.offset_of(1, 99), 2);
        assert_eq!(
            s.offset_of(2, usize::MAX),
            s.line_start(2) + s.line_text(2).len()
        );
        assert_eq!(s.offset_of(4, 1), s.line_start(4));
        assert_eq!(s.offset_of(9, 1), s.text.len());
    }

    #[test]
    fn columns_on_a_long_line_count_characters() {
        let line = "é".repeat(3000) + &"a".repeat(MARK_STEP * 2 - 1) + "x";
        let s = SourceFile::new("a", "a", &format!("ab\n{line}"));
        let x = s.text.rfind('x').unwrap();
        assert_eq!(
            s.line_col(x),
            LineCol {
                line: 2,
                column: 3000 + MARK_STEP * 2
            }
        );
        assert_eq!(s.line_col(s.text.len()).column, 3000 + MARK_STEP * 2 + 1);
        for at in [0, 1, 2, 3, 5, MARK_STEP, MARK_STEP + 1] {
            let at = s.floor_char_boundary(at);
            let start = s.line_start(s.line_col(at).line);
            assert_eq!(
                s.line_col(at).column,
                s.text[start..at].chars().count() + 1,
                "{at}"
            );
        }
    }
}
