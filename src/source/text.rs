//! The text of an input file, owned, shared or read when first asked for.
use std::sync::{Arc, OnceLock};

/// A file's text: its own, a range of a buffer shared with others (a
/// one-file run takes 5,000 contract texts from the cache without copying
/// 19 MB out of it), or one read on first use (a one-file run loads every
/// SQL file for context and replays only the histories holding a named
/// file: 14 MB of the bench repo's SQL is otherwise read for nothing).
/// Reads as `str`.
#[derive(Clone)]
pub struct Text {
    buf: Buf,
    start: usize,
    end: usize,
}

#[derive(Clone)]
enum Buf {
    Ready(Arc<String>),
    Later(Arc<Later>),
}

/// The reader runs at most once; what it gives is the text from then on.
struct Later {
    read: Box<dyn Fn() -> String + Send + Sync>,
    text: OnceLock<String>,
}

impl Text {
    /// `buf[start..end]`; `None` unless both ends are character boundaries.
    pub fn part(buf: &Arc<String>, start: usize, end: usize) -> Option<Text> {
        buf.get(start..end)?;
        Some(Text {
            buf: Buf::Ready(Arc::clone(buf)),
            start,
            end,
        })
    }

    /// A text `read` gives when first asked for (without a byte-order mark:
    /// it is not stripped afterwards).
    pub fn later(read: impl Fn() -> String + Send + Sync + 'static) -> Text {
        Text {
            buf: Buf::Later(Arc::new(Later {
                read: Box::new(read),
                text: OnceLock::new(),
            })),
            start: 0,
            end: usize::MAX,
        }
    }

    pub(super) fn without_bom(mut self) -> Text {
        if matches!(self.buf, Buf::Ready(_)) && self.starts_with('\u{feff}') {
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
            buf: Buf::Ready(Arc::new(s)),
            start: 0,
            end,
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.buf {
            Buf::Ready(buf) => &buf[self.start..self.end],
            Buf::Later(later) => later.text.get_or_init(|| (later.read)()),
        }
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

#[cfg(test)]
mod tests {
    use super::Text;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_later_text_is_read_once_and_only_when_asked_for() {
        let reads = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&reads);
        let text = Text::later(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            "SELECT 1;\n".to_string()
        });
        let copy = text.clone();
        assert_eq!(reads.load(Ordering::SeqCst), 0);
        assert_eq!(&*text, "SELECT 1;\n");
        assert_eq!(&*copy, "SELECT 1;\n");
        assert_eq!(text.len(), 10);
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }
}
