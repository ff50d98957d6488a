//! The text of an input file, owned or shared.
use std::sync::Arc;

/// A file's text: its own, or a range of a buffer shared with others (a
/// one-file run takes 5,000 contract texts from the cache without copying
/// 19 MB out of it). Reads as `str`.
#[derive(Clone)]
pub struct Text {
    buf: Arc<String>,
    start: usize,
    end: usize,
}

impl Text {
    /// `buf[start..end]`; `None` unless both ends are character boundaries.
    pub fn part(buf: &Arc<String>, start: usize, end: usize) -> Option<Text> {
        buf.get(start..end)?;
        Some(Text {
            buf: Arc::clone(buf),
            start,
            end,
        })
    }

    pub(super) fn without_bom(mut self) -> Text {
        if self.starts_with('\u{feff}') {
            self.start += '\u{feff}'.len_utf8();
        }
        self
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::from(s.to_string())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        let end = s.len();
        Text {
            buf: Arc::new(s),
            start: 0,
            end,
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.buf[self.start..self.end]
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}
