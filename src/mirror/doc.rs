//! One architecture document read the way its gate reads it: lines as awk
//! sees them (split on `\n` only, a `\r` stays part of the line), the
//! boundary line, headings outside code fences, and the header paragraphs
//! (Sibling sync, Sanitization boundary) the MR rules look at.
use super::config::GATE_HEADING;
use regex::Regex;

/// A 1-based line: its byte offset and its text as awk prints it.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    pub start: usize,
    pub text: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub line: usize,
    pub level: usize,
    pub text: String,
}

/// A `> **Lead.** …` blockquote paragraph of the document header.
#[derive(Debug, Clone)]
pub struct Para {
    pub first: usize,
    pub last: usize,
    /// The paragraph's text, its lines joined with `\n`, and the byte offset
    /// of each of its lines.
    pub text: String,
    pub offsets: Vec<(usize, usize)>,
}

impl Para {
    /// The byte offset in the file of a byte offset into `text`.
    pub fn file_offset(&self, at: usize) -> usize {
        let mut best = self.offsets[0];
        for &(para_at, file_at) in &self.offsets {
            if para_at <= at {
                best = (para_at, file_at);
            }
        }
        best.1 + (at - best.0)
    }
}

#[derive(Debug)]
pub struct Doc<'a> {
    pub text: &'a str,
    pub lines: Vec<Line<'a>>,
    /// Which lines are inside a fenced code block (fence lines included).
    pub fenced: Vec<bool>,
    /// The first fence that is never closed (1-based line). CommonMark would
    /// make the rest of the document code and hide every heading after it
    /// (the gate section among them); platcheck reads what follows as text
    /// and MR003 reports the fence.
    pub unclosed_fence: Option<usize>,
    /// The byte offset of the first CR not followed by LF. awk and grep split
    /// on LF only, so a document with lone-CR line endings is one line to its
    /// own gate, which then cannot check it; MR003 says so.
    pub lone_cr: Option<usize>,
    pub headings: Vec<Heading>,
    /// The first line matching the boundary regex (1-based).
    pub boundary: Option<usize>,
    /// The stack named by the boundary heading (`Python` in
    /// `## Python-specific implementation patterns`).
    pub stack: Option<String>,
}

impl<'a> Doc<'a> {
    pub fn parse(text: &'a str, boundary: &Regex) -> Doc<'a> {
        let mut lines = Vec::new();
        let mut start = 0;
        for piece in text.split_inclusive('\n') {
            lines.push(Line {
                start,
                text: piece.strip_suffix('\n').unwrap_or(piece),
            });
            start += piece.len();
        }
        let (fenced, unclosed_fence) = fences(&lines);
        let headings = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| !fenced[*i])
            .filter_map(|(i, l)| heading(l.text).map(|(level, t)| (i, level, t)))
            .map(|(i, level, text)| Heading {
                line: i + 1,
                level,
                text,
            })
            .collect();
        let found = lines
            .iter()
            .position(|l| boundary.is_match(l.text))
            .map(|i| i + 1);
        let stack = found.and_then(|b| stack_name(lines[b - 1].text, boundary));
        Doc {
            text,
            lines,
            fenced,
            unclosed_fence,
            lone_cr: text
                .bytes()
                .enumerate()
                .position(|(i, c)| c == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n')),
            headings,
            boundary: found,
            stack,
        }
    }

    pub fn line(&self, n: usize) -> &'a str {
        self.lines.get(n.wrapping_sub(1)).map_or("", |l| l.text)
    }

    /// The mirrored region: lines `1..boundary` (what awk prints).
    pub fn region(&self) -> impl Iterator<Item = (usize, &Line<'a>)> {
        let end = self.boundary.map_or(0, |b| b - 1);
        self.lines
            .iter()
            .take(end)
            .enumerate()
            .map(|(i, l)| (i + 1, l))
    }

    /// The first `> **Lead.**` paragraph before the boundary.
    pub fn header_para(&self, lead: &str) -> Option<Para> {
        let end = self.boundary.unwrap_or(self.lines.len() + 1) - 1;
        let open = format!("> **{lead}");
        let first = (1..=end).find(|&n| !self.fenced[n - 1] && self.line(n).starts_with(&open))?;
        let mut p = Para {
            first,
            last: first,
            text: String::new(),
            offsets: Vec::new(),
        };
        let mut n = first;
        while n <= end {
            let t = self.line(n).trim_end_matches('\r');
            let Some(body) = t.strip_prefix('>') else {
                break;
            };
            if body.trim().is_empty() || (n > first && body.trim_start().starts_with("**")) {
                break;
            }
            if !p.text.is_empty() {
                p.text.push('\n');
            }
            let skip = t.len() - body.trim_start().len();
            p.offsets
                .push((p.text.len(), self.lines[n - 1].start + skip));
            p.text.push_str(body.trim_start());
            p.last = n;
            n += 1;
        }
        Some(p)
    }
}

/// `(level, text)` of an ATX heading line.
pub fn heading(line: &str) -> Option<(usize, String)> {
    let t = line.trim_end_matches('\r');
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    let text = rest.trim().trim_end_matches('#').trim_end();
    Some((level, text.to_string()))
}

/// Marks fenced code blocks (``` or ~~~, closed by a fence of the same
/// character at least as long), as CommonMark does, except that a fence
/// never closed covers only its own line (see `Doc::unclosed_fence`).
fn fences(lines: &[Line]) -> (Vec<bool>, Option<usize>) {
    let mut owner = vec![None; lines.len()];
    let mut unclosed = None;
    let mut from = 0;
    // A few rescans recover the usual case (one forgotten fence); a bound
    // keeps a document made of unclosable fences linear.
    for _ in 0..4 {
        let Some(mut o) = fences_from(lines, from, &mut owner) else {
            break;
        };
        // With one fence too many, the pairs after the forgotten one are off
        // by one: the gate section's own command fence then closes the
        // forgotten one, hiding the section. The fence whose block swallows
        // the gate heading is the one taken as unclosed.
        if let Some(h) = (from..lines.len()).find(|&i| {
            owner[i].is_some_and(|op| op != i)
                && heading(lines[i].text).is_some_and(|(_, t)| t.eq_ignore_ascii_case(GATE_HEADING))
        }) {
            o = owner[h].unwrap_or(o);
        }
        owner[o + 1..].iter_mut().for_each(|f| *f = None);
        unclosed.get_or_insert(o + 1);
        from = o + 1;
    }
    (owner.iter().map(Option::is_some).collect(), unclosed)
}

/// Marks the lines of each fenced block from line index `from` with the
/// index of its opening fence; the index of a fence left open.
fn fences_from(lines: &[Line], from: usize, owner: &mut [Option<usize>]) -> Option<usize> {
    let mut open: Option<(u8, usize, usize)> = None;
    for (i, l) in lines.iter().enumerate().skip(from) {
        let t = l.text.trim_end_matches('\r');
        let indent = t.len() - t.trim_start_matches(' ').len();
        let body = &t[indent..];
        let ch = body.bytes().next();
        let run = |c: u8| body.bytes().take_while(|&b| b == c).count();
        match open {
            Some((c, n, at)) => {
                owner[i] = Some(at);
                if indent < 4 && ch == Some(c) && run(c) >= n && body[run(c)..].trim().is_empty() {
                    open = None;
                }
            }
            None => {
                if indent < 4
                    && let Some(c @ (b'`' | b'~')) = ch
                    && run(c) >= 3
                    && !(c == b'`' && body[run(c)..].contains('`'))
                {
                    owner[i] = Some(i);
                    open = Some((c, run(c), i));
                }
            }
        }
    }
    open.map(|(_, _, at)| at)
}

/// The stack of a boundary heading: the regex's `stack` group when it has
/// one, else the word before `-specific`.
fn stack_name(line: &str, boundary: &Regex) -> Option<String> {
    if let Some(m) = boundary.captures(line).and_then(|c| c.name("stack")) {
        return Some(m.as_str().to_string());
    }
    let (_, text) = heading(line)?;
    let before = text.split("-specific").next()?;
    let word = before.split_whitespace().last()?;
    (!word.is_empty() && word.len() < text.len()).then(|| word.to_string())
}

/// Inline code spans of a line: `(content, byte offset of the content)`.
pub fn code_spans(text: &str) -> Vec<(String, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let n = b[i..].iter().take_while(|&&c| c == b'`').count();
        let open_end = i + n;
        let mut j = open_end;
        let mut close = None;
        while j < b.len() {
            if b[j] == b'`' {
                let m = b[j..].iter().take_while(|&&c| c == b'`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        let Some(close) = close else {
            i = open_end;
            continue;
        };
        let raw = &text[open_end..close];
        // CommonMark strips one space on each side when both are there.
        let (content, shift) =
            if raw.len() > 2 && raw.starts_with(' ') && raw.ends_with(' ') && raw.trim() != "" {
                (&raw[1..raw.len() - 1], 1)
            } else {
                (raw, 0)
            };
        out.push((content.to_string(), open_end + shift));
        i = close + n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_headings_and_fences() {
        let re = Regex::new("^## .*-specific implementation patterns").unwrap();
        let text = "# T\r\n> **Sibling sync.** see `a/b.md`\n\n## One\n```\n## not a heading\n```\n## Go-specific implementation patterns\nx\n";
        let d = Doc::parse(text, &re);
        assert_eq!(d.boundary, Some(8));
        assert_eq!(d.stack.as_deref(), Some("Go"));
        assert_eq!(d.line(1), "# T\r");
        let hs: Vec<_> = d.headings.iter().map(|h| h.line).collect();
        assert_eq!(hs, vec![1, 4, 8]);
        assert_eq!(d.region().count(), 7);
        let p = d.header_para("Sibling sync.").unwrap();
        let spans = code_spans(&p.text);
        assert_eq!(spans[0].0, "a/b.md");
        assert_eq!(&text[p.file_offset(spans[0].1)..][..6], "a/b.md");
    }

    #[test]
    fn code_spans_follow_commonmark() {
        let s = code_spans(r"a `x\(` and `` y`z `` and `open");
        assert_eq!(s[0], (r"x\(".to_string(), 3));
        assert_eq!(s[1].0, "y`z");
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn an_unclosed_fence_covers_only_its_line() {
        let re = Regex::new("^## .*-specific").unwrap();
        let d = Doc::parse("# T\n```sh\nx\n## One\n", &re);
        assert_eq!(d.unclosed_fence, Some(2));
        assert_eq!(d.fenced, vec![false, true, false, false]);
        assert_eq!(
            d.headings.iter().map(|h| h.line).collect::<Vec<_>>(),
            vec![1, 4]
        );
        let d = Doc::parse("```a\n```b\n```c\n", &re);
        assert_eq!(d.unclosed_fence, Some(1));
    }
}
