//! Byte offsets ↔ protocol positions through a line index: where each line
//! starts is found once per text, so a position costs a binary search plus
//! the UTF-16 count of its own line, not a scan from the start of the file
//! (a file with thousands of findings converted every range from byte 0).
//! Line breaks are the protocol's: `\n`, `\r\n` and a lone `\r`, the same
//! ones `SourceFile` counts, so editor lines and reported lines agree.
use crate::outcome::Outcome;
use crate::source::normalize;
use lsp_types as lsp;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of each line's first character; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        LineIndex {
            text,
            starts: crate::source::line_starts(text),
        }
    }

    /// The protocol position of a byte offset (clamped to the text and down
    /// to a character boundary).
    pub fn position(&self, offset: usize) -> lsp::Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        lsp::Position::new(line as u32, character as u32)
    }

    /// The byte offset of a protocol position, clamped to its line's end
    /// (before the line break); a line past the end is the end of the text.
    pub fn offset(&self, pos: lsp::Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        let end = self.line_end(pos.line as usize);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub fn range(&self, start: usize, end: usize) -> lsp::Range {
        lsp::Range::new(self.position(start), self.position(end))
    }

    /// Where line `i` (0-based) ends, its line break left out.
    fn line_end(&self, i: usize) -> usize {
        let Some(&next) = self.starts.get(i + 1) else {
            return self.text.len();
        };
        let line = &self.text[self.starts[i]..next];
        let brk = if line.ends_with("\r\n") { 2 } else { 1 };
        next - brk
    }
}

/// The texts of a run's files by path, each indexed the first time it is
/// asked for (a related place or a fix's edit in another file).
pub struct Files<'a> {
    by_path: BTreeMap<PathBuf, (&'a str, OnceCell<LineIndex<'a>>)>,
}

impl<'a> Files<'a> {
    pub fn of(outcome: &'a Outcome) -> Files<'a> {
        let by_path = outcome
            .files
            .iter()
            .map(|s| (normalize(&s.path), (&*s.text, OnceCell::new())))
            .collect();
        Files { by_path }
    }

    pub fn get(&self, path: &Path) -> Option<&LineIndex<'a>> {
        let (text, index) = self.by_path.get(&normalize(path))?;
        Some(index.get_or_init(|| LineIndex::new(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\né😀x\n";
        let ix = LineIndex::new(text);
        let p = ix.position(text.find('x').unwrap());
        assert_eq!((p.line, p.character), (1, 3));
        assert_eq!(ix.offset(p), text.find('x').unwrap());
    }

    #[test]
    fn every_line_break_of_the_protocol_ends_a_line() {
        let text = "a\r\nb\rc\nd";
        let ix = LineIndex::new(text);
        for (c, line) in [('b', 1), ('c', 2), ('d', 3)] {
            let p = ix.position(text.find(c).unwrap());
            assert_eq!((p.line, p.character), (line, 0), "{c}");
        }
        // Past the end of a line: its end, before the CRLF.
        assert_eq!(ix.offset(lsp::Position::new(0, 9)), 1);
        assert_eq!(ix.offset(lsp::Position::new(1, 9)), 4);
        assert_eq!(ix.offset(lsp::Position::new(3, 9)), text.len());
        assert_eq!(ix.offset(lsp::Position::new(7, 0)), text.len());
    }

    #[test]
    fn offsets_inside_a_character_fall_back_to_its_start() {
        let text = "é";
        let p = LineIndex::new(text).position(1);
        assert_eq!((p.line, p.character), (0, 0));
    }
}
