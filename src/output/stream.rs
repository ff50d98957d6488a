//! Streaming printers: a head, the findings file by file, and a tail, each
//! written out as soon as it is rendered, so a run with 60,000 findings
//! never holds its whole output (53 MB of JSON at 100k statements).
//!
//! A printer that panics must still not lose the run (see `isolate`): each
//! file's findings are rendered into a buffer first, and when that panics
//! the file's findings are tried one by one and those the printer fails on
//! become a PC000 each, exactly as `isolate::render_isolated` does for the
//! printers that render whole. Only the one file is rendered twice.
use super::isolate::{self, bump, pc000};
use crate::finding::{Finding, Severity};
use crate::outcome::{Outcome, Summary};
use std::io::{self, Write};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A printer in three parts. Findings come sorted as the engine sorts them
/// (by file first), so the findings of one file are consecutive.
pub trait Stream {
    /// Everything before the first finding.
    fn head(&self, o: &Outcome, out: &mut String);
    /// The findings of one file, in order. `at`: the index of the first in
    /// `o.findings` (`None` when they stand in for findings the printer
    /// failed on); `written`: how many findings were written before them.
    fn file(
        &self,
        o: &Outcome,
        findings: &[Finding],
        at: Option<usize>,
        written: usize,
        out: &mut String,
    );
    /// Everything after the last finding; `summary` counts what was written.
    fn tail(&self, o: &Outcome, summary: &Summary, written: usize, out: &mut String);
    /// Whether `file` (the findings of one file) may be handed to `file`
    /// in consecutive pieces with the same output as all at once: then a
    /// file with 100,000 findings is written `BLOCK` at a time instead of
    /// being rendered whole into one buffer first.
    fn in_blocks(&self, file: &[Finding]) -> bool {
        let _ = file;
        false
    }
}

/// Findings rendered into the buffer before it is written out, for a
/// printer whose files can be cut (`Stream::in_blocks`).
pub const BLOCK: usize = 256;

/// What writing changed in the outcome: findings the printer failed on,
/// replaced by PC000s, and the summary that counts them. `apply` puts it
/// into the outcome once the printer (which borrows it) is gone.
#[must_use]
pub struct Repairs {
    replaced: Vec<(Range<usize>, Vec<Finding>)>,
    summary: Summary,
    /// The printer failed outside any one finding (its head or tail).
    failed: bool,
}

impl Repairs {
    pub fn apply(self, outcome: &mut Outcome, printer: &str) {
        for (range, new) in self.replaced.into_iter().rev() {
            outcome.findings.splice(range, new);
        }
        outcome.summary = self.summary;
        if self.failed
            && !outcome
                .findings
                .iter()
                .any(|f| f.rule == crate::RuleId::PC000)
        {
            outcome.findings.push(pc000(printer, None));
        }
    }
}

/// Writes the whole output of `p` to `w`, one file's findings at a time.
pub fn write(o: &Outcome, printer: &str, p: &dyn Stream, w: &mut dyn Write) -> io::Result<Repairs> {
    let mut repairs = Repairs {
        replaced: Vec::new(),
        summary: o.summary,
        failed: false,
    };
    let mut buf = String::new();
    if catch_unwind(AssertUnwindSafe(|| p.head(o, &mut buf))).is_err() {
        repairs.failed = true;
        w.write_all(isolate::failed_text(printer, o.findings.len()).as_bytes())?;
        return Ok(repairs);
    }
    w.write_all(buf.as_bytes())?;
    let mut written = 0;
    for range in files(&o.findings).flat_map(|r| blocks(p, &o.findings, r)) {
        let chunk = &o.findings[range.clone()];
        buf.clear();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            isolate::inject_panic(chunk);
            p.file(o, chunk, Some(range.start), written, &mut buf);
        }))
        .is_ok();
        if ok {
            w.write_all(buf.as_bytes())?;
            written += chunk.len();
            continue;
        }
        let new = retry(o, printer, p, chunk, written, &mut repairs.summary);
        buf.clear();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            isolate::inject_panic(&new);
            p.file(o, &new, None, written, &mut buf);
        }))
        .is_ok();
        if !ok {
            // Not about one finding: say so plainly, as `render_isolated` does.
            repairs.failed = true;
            w.write_all(isolate::failed_text(printer, o.findings.len()).as_bytes())?;
            return Ok(repairs);
        }
        w.write_all(buf.as_bytes())?;
        written += new.len();
        repairs.replaced.push((range, new));
    }
    buf.clear();
    let summary = repairs.summary;
    if catch_unwind(AssertUnwindSafe(|| p.tail(o, &summary, written, &mut buf))).is_err() {
        repairs.failed = true;
        buf = isolate::failed_text(printer, o.findings.len());
    }
    w.write_all(buf.as_bytes())?;
    Ok(repairs)
}

/// Whether `p` prints everything without failing on any finding: the
/// whole output written into nothing, quietly (a panic is reported by the
/// run that follows, not by this one).
pub fn dry_run(o: &Outcome, printer: &str, p: &dyn Stream) -> bool {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let clean =
        write(o, printer, p, &mut io::sink()).is_ok_and(|r| r.replaced.is_empty() && !r.failed);
    std::panic::set_hook(hook);
    clean
}

/// The ranges of `findings` that are about one file each, in order.
pub fn files(findings: &[Finding]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        let first = findings.get(start)?;
        let len = findings[start..]
            .iter()
            .position(|f| f.file != first.file)
            .unwrap_or(findings.len() - start);
        start += len;
        Some(start - len..start)
    })
}

/// A file's range, cut into `BLOCK`s when the printer allows it.
fn blocks(p: &dyn Stream, findings: &[Finding], r: Range<usize>) -> Vec<Range<usize>> {
    if r.len() <= BLOCK || !p.in_blocks(&findings[r.clone()]) {
        return vec![r];
    }
    (r.start..r.end)
        .step_by(BLOCK)
        .map(|s| s..(s + BLOCK).min(r.end))
        .collect()
}

/// The whole output of `p` as one string, without isolation (a panic
/// propagates: `isolate::render_isolated` is the caller that catches it).
pub fn to_string(p: &dyn Stream, o: &Outcome) -> String {
    let mut out = String::new();
    p.head(o, &mut out);
    let mut written = 0;
    for range in files(&o.findings) {
        let chunk = &o.findings[range.clone()];
        p.file(o, chunk, Some(range.start), written, &mut out);
        written += chunk.len();
    }
    p.tail(o, &o.summary, written, &mut out);
    out
}

/// The findings of a file the printer panicked on, each tried alone
/// (quietly: the first panic has been reported on stderr); those it fails
/// on are replaced by a PC000 at the start of the file, sorted in.
fn retry(
    o: &Outcome,
    printer: &str,
    p: &dyn Stream,
    chunk: &[Finding],
    written: usize,
    summary: &mut Summary,
) -> Vec<Finding> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut new = Vec::with_capacity(chunk.len());
    let mut scratch = String::new();
    for f in chunk {
        let one = std::slice::from_ref(f);
        scratch.clear();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            isolate::inject_panic(one);
            p.file(o, one, None, written, &mut scratch);
        }))
        .is_ok();
        if ok {
            new.push(f.clone());
        } else {
            new.push(pc000(printer, Some(f)));
            bump(summary, f.severity, -1);
            bump(summary, Severity::Error, 1);
        }
    }
    std::panic::set_hook(hook);
    new.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    new
}

/// `text` indented by `indent` at the start of each line: a value that
/// serde_json printed on its own, placed at its depth inside a document
/// (JSON strings never hold a raw newline, so every line break is layout).
pub fn push_indented(out: &mut String, text: &str, indent: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(line);
    }
}

/// A pretty-printed JSON document split around one array that is written
/// item by item: the document is printed with `SENTINEL` in the array's
/// place, and the array's items go at the sentinel's depth plus one.
#[derive(Clone)]
pub struct Split {
    pub head: String,
    pub tail: String,
    /// The indent of the array's items.
    pub indent: String,
}

pub const SENTINEL: &str = "\u{1}platcheck-stream\u{1}";

impl Split {
    /// `doc`: the pretty JSON with `"SENTINEL"` (escaped as serde_json
    /// writes it) as the array's value; `key`: the array's key, which comes
    /// before anything user-written in the document.
    pub fn new(doc: &str, key: &str) -> Split {
        let marker = format!("\"{key}\": {}", serde_json::json!(SENTINEL));
        let at = doc
            .find(&marker)
            .expect("the sentinel is in the document it was put in");
        let line_start = doc[..at].rfind('\n').map_or(0, |i| i + 1);
        let key_indent = &doc[line_start..at];
        let value_at = at + marker.len() - serde_json::json!(SENTINEL).to_string().len();
        Split {
            head: doc[..value_at].to_string(),
            tail: doc[at + marker.len()..].to_string(),
            indent: format!("{key_indent}  "),
        }
    }
    /// Before item number `written` (0-based).
    pub fn before_item(&self, written: usize, out: &mut String) {
        out.push_str(if written == 0 { "[\n" } else { ",\n" });
    }
    /// The array's end and the rest of the document.
    pub fn finish(&self, written: usize, out: &mut String) {
        if written == 0 {
            out.push_str("[]");
        } else {
            out.push('\n');
            out.push_str(&self.indent[2..]);
            out.push(']');
        }
        out.push_str(&self.tail);
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
pub(super) mod tests;
