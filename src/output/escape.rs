//! Escaping shared by the printers. Text a user wrote (contract keys, file
//! names, SQL) must not drive the terminal or the CI log: C0 controls
//! (but tab and newline), DEL and C1 controls are shown, not sent.
use std::borrow::Cow;

fn is_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

/// Controls written as visible escapes (`\x1b`, `\u{9b}`), for messages
/// and help on a terminal or in a CI log.
pub fn controls(s: &str) -> Cow<'_, str> {
    escaped(s, is_control)
}

/// A file name on one line: controls, tabs and line breaks escaped.
pub fn file_name(s: &str) -> Cow<'_, str> {
    escaped(s, |c| is_control(c) || c == '\n' || c == '\t')
}

fn escaped(s: &str, is_control: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            c if is_control(c) && (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Controls replaced one for one by characters of the same UTF-8 length
/// (`?` for one byte, `¿` for two, `⍰` for three), so that byte offsets
/// into the text stay valid: for source snippets. The `\r` of a CRLF stays;
/// a lone one would return the cursor and let the line overwrite itself.
pub fn controls_in_place(s: &str) -> Cow<'_, str> {
    let crlf = |i: usize| s.as_bytes().get(i + 1) == Some(&b'\n');
    if !s
        .char_indices()
        .any(|(i, c)| is_control(c) && !(c == '\r' && crlf(i)))
    {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.char_indices()
            .map(|(i, c)| match c {
                '\r' if crlf(i) => c,
                c if is_control(c) => match c.len_utf8() {
                    1 => '?',
                    2 => '¿',
                    _ => '⍰',
                },
                c => c,
            })
            .collect(),
    )
}

/// One line: line breaks as spaces, other controls escaped (gcc lines).
pub fn one_line(s: &str) -> String {
    controls(&s.replace(['\r', '\n', '\u{2028}', '\u{2029}'], " ")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_sent() {
        assert_eq!(
            controls("a\x1b[31mb\x07\u{9b}c\n"),
            "a\\x1b[31mb\\x07\\u{9b}c\n"
        );
        assert!(matches!(controls("plain\ttext\n"), Cow::Borrowed(_)));
        assert_eq!(one_line("a\nb\rc\x1b"), "a b c\\x1b");
        assert_eq!(file_name("a\nb\x1b.md"), "a\\x0ab\\x1b.md");
    }

    #[test]
    fn in_place_replacement_keeps_byte_offsets() {
        let s = "k\x1b: \u{9b}v\u{2028}\r\nlone\rcr";
        let r = controls_in_place(s);
        assert_eq!(r.len(), s.len());
        assert_eq!(r, "k?: ¿v⍰\r\nlone?cr");
        assert!(matches!(controls_in_place("a\r\nb\n"), Cow::Borrowed(_)));
    }
}
