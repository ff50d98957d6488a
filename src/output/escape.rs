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
    escaped(s, false, is_control)
}

/// A file name on one line: controls, tabs and line breaks escaped.
pub fn file_name(s: &str) -> Cow<'_, str> {
    escaped(s, true, |c| is_control(c) || c == '\n' || c == '\t')
}

/// Whether `s` holds a control `is_control` would escape, read byte by
/// byte: the printers call this on every message, help and snippet, and
/// decoding chars was 37% of the human printer. Exact for `is_control`:
/// C0 and DEL are single bytes, C1 is `C2 80..=9F`, U+2028/U+2029 are
/// `E2 80 A8`/`E2 80 A9`; no other UTF-8 sequence contains those bytes in
/// that order at a char boundary. `tab_nl`: tab and newline count too.
/// Eight plain ASCII bytes (no control, no DEL, no byte of a multi-byte
/// char) are skipped at once, which a byte loop spent 5% of a human run on.
fn has_control(s: &str, tab_nl: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some(w) = crate::bytes::word(b, i)
            && !suspect(w)
        {
            i += 8;
            continue;
        }
        match b[i] {
            b'\t' | b'\n' if !tab_nl => {}
            0..=0x1f | 0x7f => return true,
            0xc2 if matches!(b.get(i + 1), Some(0x80..=0x9f)) => return true,
            0xe2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xa8 | 0xa9)) => {
                return true;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether a byte of `w` is below 0x20, DEL or 0x80 and above.
fn suspect(w: u64) -> bool {
    use crate::bytes::{has_below, has_byte, has_high};
    has_high(w) || has_below(w, 0x20) || has_byte(w, 0x7f)
}

fn escaped(s: &str, tab_nl: bool, is_control: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !has_control(s, tab_nl) {
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
    // The byte scan first: most snippets hold no control at all (a CRLF's
    // `\r` is one to it, so those files take the exact test below).
    if !has_control(s, false)
        || !s
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
    fn the_byte_scan_agrees_with_the_char_test_on_every_char() {
        // Every char alone and between neighbours that share its bytes.
        for c in (0..0x3000u32)
            .chain(0xfff0..0x10000)
            .filter_map(char::from_u32)
        {
            // And at each byte of an eight-byte word, after plain ASCII.
            let padded = (0..9).map(|n| format!("{}{c}{}", "x".repeat(n), "y".repeat(n)));
            for s in [
                c.to_string(),
                format!("\u{c2}{c}\u{e2}"),
                format!("\u{2020}{c}é"),
            ]
            .into_iter()
            .chain(padded)
            {
                let want = s.chars().any(is_control);
                assert_eq!(has_control(&s, false), want, "{s:?}");
                let want = s.chars().any(|c| is_control(c) || c == '\n' || c == '\t');
                assert_eq!(has_control(&s, true), want, "{s:?}");
            }
        }
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
