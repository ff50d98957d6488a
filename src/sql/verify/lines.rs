//! Positions in a script, for verify's rows and findings.
use super::Script;

/// A script's line index, built once: a position costs a binary search
/// (not a walk from the start of the file for every statement), and LF,
/// CRLF and a lone CR each end a line, as everywhere else (`SourceFile`).
pub struct Lines {
    src: crate::source::SourceFile,
    /// `SourceFile` drops a leading BOM; offsets into the script shift by it.
    bom: usize,
}

impl Lines {
    pub fn new(script: &Script) -> Lines {
        Lines {
            src: crate::source::SourceFile::new(&script.name, &script.name, &script.text),
            bom: if script.text.starts_with('\u{feff}') {
                '\u{feff}'.len_utf8()
            } else {
                0
            },
        }
    }

    /// 1-based line and column (in characters) of a byte offset in the script.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let lc = self.src.line_col(offset.saturating_sub(self.bom));
        (lc.line, lc.column)
    }
}

#[cfg(test)]
mod line_tests {
    use super::{Lines, Script};

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr_and_skip_a_bom() {
        let s = Script {
            name: "up.sql".into(),
            text: "\u{feff}SELECT 1;\rSELECT 2;\r\nSELECT é, 3;\nX".into(),
        };
        let l = Lines::new(&s);
        let at = |needle: &str| s.text.find(needle).unwrap();
        assert_eq!(l.line_col(at("SELECT 1")), (1, 1));
        assert_eq!(l.line_col(at("SELECT 2")), (2, 1));
        assert_eq!(l.line_col(at("3;")), (3, 11));
        assert_eq!(l.line_col(at("X")), (4, 1));
    }
}
