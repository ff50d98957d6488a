//! The source snippet under a human report: the labelled lines with a line
//! of context either side, line numbers, underlines and label text, drawn
//! as miette 7's `GraphicalReportHandler` drew them (same layout, same
//! bytes, its quirks included: a snippet's header column is always 1, the
//! label text is styled twice in colour, a gutter's padding counts the
//! escape characters). miette cost ≈ 98 k instructions per finding, most
//! of them allocations and re-reading the lines; this reads the lines once
//! through the file's line index. `human_tests` compares the two.
mod gutter;

use super::theme::{self, Paint, Theme};
use crate::source::SourceFile;
use gutter::Gutter;
use unicode_width::UnicodeWidthChar;

/// Lines of context shown before and after a label.
const CONTEXT: usize = 1;
/// Columns of a tab stop (miette's default).
const TAB: usize = 4;

/// A labelled span: bytes `offset..offset + len` of the source.
#[derive(Clone, Debug)]
pub struct Label {
    pub offset: usize,
    pub len: usize,
    pub text: String,
}

/// A label as drawn: its span, its style, its text's lines.
struct Fancy<'a> {
    offset: usize,
    len: usize,
    text: &'a str,
    paint: Paint,
    /// The label's lines, each styled.
    parts: Vec<String>,
}

impl Fancy<'_> {
    /// Same label text at the same span (miette compares labels so).
    fn same(&self, o: &Fancy) -> bool {
        self.offset == o.offset && self.len == o.len && self.text == o.text
    }
    fn end(&self) -> usize {
        self.offset + self.len
    }
    /// The end of the span with an empty span counted as one byte.
    fn end1(&self) -> usize {
        self.offset + self.len.max(1)
    }
}

/// One line of a snippet: its 1-based number, its bytes in the source
/// (with the line break), its text (without).
struct Line<'a> {
    number: usize,
    offset: usize,
    length: usize,
    text: &'a str,
}

impl Line<'_> {
    fn end(&self) -> usize {
        self.offset + self.length
    }
    fn only(&self, s: &Fancy) -> bool {
        s.offset >= self.offset && s.end() <= self.end()
    }
    fn applies(&self, s: &Fancy) -> bool {
        (s.offset >= self.offset && s.offset < self.end())
            || (s.offset < self.offset && s.end1() > self.end())
            || (s.end1() > self.offset && s.end1() <= self.end())
    }
    fn applies_gutter(&self, s: &Fancy) -> bool {
        self.applies(s)
            && !((s.offset >= self.offset && s.offset < self.end())
                && (s.end1() > self.offset && s.end1() <= self.end()))
    }
    fn flyby(&self, s: &Fancy) -> bool {
        s.offset < self.offset && s.end() > self.end()
    }
    fn starts(&self, s: &Fancy) -> bool {
        s.offset >= self.offset
    }
    fn ends(&self, s: &Fancy) -> bool {
        s.end() >= self.offset && s.end() <= self.end()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Single,
    First,
    Rest,
}

/// The lines a span is shown with: 1-based `first..=last` (`before` and
/// `after` lines of context included) at bytes `from..to`.
/// The whole lines around a span: lines `first..=last` (1-based), bytes
/// `from..to`. The oracle printer reads its miette source through it too.
pub(super) struct Window {
    pub first: usize,
    pub last: usize,
    pub from: usize,
    pub to: usize,
}

/// `before` lines above the span's first line, `after` below its last.
pub(super) fn window(
    src: &SourceFile,
    offset: usize,
    len: usize,
    before: usize,
    after: usize,
) -> Window {
    let n = src.text.len();
    let start = offset.min(n);
    let end = offset.saturating_add(len).min(n);
    let first = line_of(src, start).saturating_sub(before).max(1);
    let last = (line_of(src, end) + after).min(src.line_count()).max(first);
    let from = src.line_start(first);
    let to = if last < src.line_count() {
        src.line_start(last + 1)
    } else {
        n
    };
    Window {
        first,
        last,
        from,
        to,
    }
}

/// The 1-based line of a byte offset (within the text): `line_col(at).line`
/// without counting the characters of the column, which is never needed.
pub fn line_of(src: &SourceFile, at: usize) -> usize {
    let (mut lo, mut hi) = (1, src.line_count());
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if src.line_start(mid) <= at {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The lines of a window, split as miette splits them: at LF and CRLF (a
/// lone CR is part of the line; the printer has made it visible already).
fn lines<'s>(src: &'s SourceFile, w: &Window) -> Vec<Line<'s>> {
    let text = &src.text[..];
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(w.last + 1 - w.first);
    let (mut at, mut number) = (w.from, w.first);
    while at < w.to {
        match bytes[at..w.to].iter().position(|&b| b == b'\n') {
            Some(i) => {
                let end = if i > 0 && bytes[at + i - 1] == b'\r' {
                    at + i - 1
                } else {
                    at + i
                };
                out.push(Line {
                    number,
                    offset: at,
                    length: i + 1,
                    text: &text[at..end],
                });
                at += i + 1;
                number += 1;
            }
            None => {
                // A final lone CR ended miette's count without a new line.
                let number = if bytes[w.to - 1] == b'\r' {
                    number - 1
                } else {
                    number
                };
                out.push(Line {
                    number,
                    offset: at,
                    length: w.to - at,
                    text: &text[at..w.to],
                });
                at = w.to;
            }
        }
    }
    out
}

/// Columns each character of `text` takes: tabs to the next stop, ANSI
/// escapes none, others their (unicode-width 0.1) width.
fn widths(text: &str) -> impl Iterator<Item = usize> + '_ {
    let (mut column, mut escaped) = (0, false);
    text.chars().map(move |c| {
        let width = match (escaped, c) {
            (false, '\t') => TAB - column % TAB,
            (false, '\x1b') => {
                escaped = true;
                0
            }
            (false, c) => c.width().unwrap_or(0),
            (true, 'm') => {
                escaped = false;
                0
            }
            (true, _) => 0,
        };
        column += width;
        width
    })
}

/// The column of a byte offset on the line (inside a character: its first
/// column when `start`, else past it); past the text: one column past it.
fn visual_offset(line: &Line, offset: usize, start: bool) -> usize {
    let mut i = offset - line.offset;
    while i <= line.text.len() && !line.text.is_char_boundary(i) {
        if start {
            i -= 1;
        } else {
            i += 1;
        }
    }
    let prefix = &line.text[..i.min(line.text.len())];
    // Printable ASCII is one column a byte, without decoding the chars.
    let w: usize = if prefix.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        prefix.len()
    } else {
        widths(prefix).sum()
    };
    if i > line.text.len() { w + 1 } else { w }
}

/// Runs of spaces and of `HBAR`s are pushed as slices of these, not char
/// by char (which was 1.5% of a human run).
const SPACES: &str = "                                                                ";
const HBARS: &str = "────────────────────────────────────────────────────────────────";

fn spaces(out: &mut String, n: usize) {
    run(out, SPACES, 1, n);
}

/// `n` × `theme::HBAR`, which is also the underline's char.
const _: () = assert!(theme::UNDERLINE as u32 == theme::HBAR as u32);
fn hbars(out: &mut String, n: usize) {
    run(out, HBARS, theme::HBAR.len_utf8(), n);
}

fn run(out: &mut String, all: &str, width: usize, mut n: usize) {
    while n > 0 {
        let k = n.min(all.len() / width);
        out.push_str(&all[..k * width]);
        n -= k;
    }
}

/// Draws the snippets of `labels` (in any order) from `src`, named `name`.
pub fn render(out: &mut String, src: &SourceFile, name: &str, labels: &[Label], theme: &Theme) {
    let mut order: Vec<&Label> = labels.iter().collect();
    // miette's sort, so labels at one offset keep its order.
    order.sort_unstable_by_key(|l| l.offset);
    let fancy: Vec<Fancy> = order
        .iter()
        .zip(theme.highlights.iter().cycle())
        .map(|(l, &paint)| Fancy {
            offset: l.offset,
            len: l.len,
            text: &l.text,
            paint,
            parts: l.text.split('\n').map(|p| paint.wrap(p)).collect(),
        })
        .collect();
    // Labels whose windows touch or overlap are shown as one snippet.
    let mut contexts: Vec<(usize, usize, Window)> = Vec::new();
    for l in &order {
        let right = window(src, l.offset, l.len, CONTEXT, CONTEXT);
        if let Some((offset, len, left)) = contexts.last_mut()
            && left.last + 1 >= right.first
        {
            let end = (*offset + *len).max(l.offset + l.len);
            *len = end - *offset;
            *left = window(src, *offset, *len, CONTEXT, CONTEXT);
            continue;
        }
        contexts.push((l.offset, l.len, right));
    }
    for (offset, len, w) in &contexts {
        context(out, src, name, (*offset, *len), w, &fancy, theme);
    }
}

fn context(
    out: &mut String,
    src: &SourceFile,
    name: &str,
    (offset, len): (usize, usize),
    w: &Window,
    all: &[Fancy],
    theme: &Theme,
) {
    let lines = lines(src, w);
    let primary = all
        .iter()
        .find(|l| offset <= l.offset && l.end() <= offset + len);
    // Only labels that reach a line of the window can draw anything; the
    // others are skipped up front (each keeps the style of its position).
    let (lo, hi) = match (lines.first(), lines.last()) {
        (Some(a), Some(b)) => (a.offset, b.end()),
        _ => (0, 0),
    };
    let labels: Vec<&Fancy> = all
        .iter()
        .filter(|l| l.offset < hi && l.end1() > lo)
        .collect();
    let max_gutter = lines
        .iter()
        .map(|line| {
            labels
                .iter()
                .filter(|l| !line.only(l) && line.applies_gutter(l))
                .count()
        })
        .max()
        .unwrap_or(0);
    let lw = digits(lines.last().map_or(0, |l| l.number));
    spaces(out, lw + 2);
    out.push(theme::LTOP);
    out.push(theme::HBAR);
    let at = match primary {
        Some(p) => line_of(src, p.offset.min(src.text.len())),
        None => w.first,
    };
    out.push('[');
    theme.link.open(out);
    out.push_str(name);
    out.push(':');
    number(out, at, 0);
    out.push_str(":1");
    theme.link.close(out);
    out.push_str("]\n");
    let g = Gutter {
        max: max_gutter,
        lw,
        labels: &labels,
    };
    for line in &lines {
        out.push(' ');
        theme.linum.open(out);
        number(out, line.number, lw);
        theme.linum.close(out);
        out.push(' ');
        out.push(theme::VBAR);
        out.push(' ');
        g.line(out, line);
        // Only a tab is drawn other than as it is (as spaces to its stop).
        if !line.text.contains('\t') {
            out.push_str(line.text);
        } else {
            for (c, width) in line.text.chars().zip(widths(line.text)) {
                if c == '\t' {
                    spaces(out, width);
                } else {
                    out.push(c);
                }
            }
        }
        out.push('\n');
        let single: Vec<&Fancy> = labels
            .iter()
            .copied()
            .filter(|l| line.applies(l) && line.only(l))
            .collect();
        if !single.is_empty() {
            g.no_linum(out);
            g.highlight(out, line, Mode::Single);
            g.single_line(out, line, &single);
        }
        for l in labels.iter().filter(|l| line.applies(l) && !line.only(l)) {
            if line.ends(l) && !line.starts(l) {
                g.multi_line_end(out, line, l);
            }
        }
    }
    spaces(out, lw + 2);
    out.push(theme::LBOT);
    hbars(out, 4);
    out.push('\n');
}

/// `n` right-aligned in `width` columns (as `{n:width$}`), without the
/// formatting machinery, which cost a thousand instructions a snippet.
pub(super) fn number(out: &mut String, n: usize, width: usize) {
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(n);
    spaces(out, width.saturating_sub(digits.len()));
    out.push_str(digits);
}

fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

#[cfg(test)]
mod runs {
    use super::*;

    #[test]
    fn runs_are_the_chars_repeated() {
        assert_eq!(SPACES, " ".repeat(64));
        assert_eq!(HBARS, theme::HBAR.to_string().repeat(64));
        for n in [0, 1, 63, 64, 65, 200] {
            let (mut a, mut b) = (String::new(), String::new());
            spaces(&mut a, n);
            hbars(&mut b, n);
            assert_eq!(a, " ".repeat(n));
            assert_eq!(b, "─".repeat(n));
            let mut c = String::new();
            number(&mut c, n, 5);
            assert_eq!(c, format!("{n:5}"));
        }
    }
}
