//! `--format json`: one JSON document, exactly as output.md specifies,
//! written file by file (`stream`): byte for byte what serde_json prints
//! for the whole document, without holding it (each finding by
//! `JsonFinding::write_pretty`, which writes those bytes without serde).
use super::stream::{self, Split, Stream};
use crate::finding::Finding;
use crate::outcome::{Outcome, Summary};
use crate::report::json::convert;
use serde::Serialize;

#[derive(Serialize)]
struct Doc<'a, F> {
    version: u32,
    tool: Tool,
    today: String,
    /// `stream::SENTINEL`: the findings are written in its place (the
    /// tests put the findings themselves, as the whole-document oracle).
    findings: F,
    summary: Summary,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

fn doc<F: Serialize>(outcome: &Outcome, summary: Summary, findings: F) -> String {
    let doc = Doc {
        version: 1,
        tool: Tool {
            name: "platcheck",
            version: env!("CARGO_PKG_VERSION"),
        },
        today: outcome.today.to_string(),
        findings,
        summary,
        notes: &outcome.notes,
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn split(outcome: &Outcome, summary: Summary) -> Split {
    Split::new(&doc(outcome, summary, stream::SENTINEL), "findings")
}

pub struct Printer {
    split: Split,
}

impl Printer {
    pub fn new(outcome: &Outcome) -> Printer {
        Printer {
            split: split(outcome, outcome.summary),
        }
    }
}

impl Stream for Printer {
    fn head(&self, _: &Outcome, out: &mut String) {
        out.push_str(&self.split.head);
    }
    fn file(
        &self,
        _: &Outcome,
        fs: &[Finding],
        _: Option<usize>,
        written: usize,
        out: &mut String,
    ) {
        for (i, f) in fs.iter().enumerate() {
            self.split.before_item(written + i, out);
            convert(f).write_pretty(out, &self.split.indent);
        }
    }
    fn in_blocks(&self, _: &[Finding]) -> bool {
        // Each item depends only on its finding and its index.
        true
    }
    fn tail(&self, o: &Outcome, summary: &Summary, written: usize, out: &mut String) {
        // The summary is in the tail: printed again if a PC000 changed it.
        let split = if *summary == o.summary {
            None
        } else {
            Some(split(o, *summary))
        };
        split.as_ref().unwrap_or(&self.split).finish(written, out);
    }
}

pub fn render(outcome: &Outcome) -> String {
    stream::to_string(&Printer::new(outcome), outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streamed, the document is byte for byte what serde_json prints for
    /// the whole of it.
    #[test]
    fn streaming_is_byte_identical_to_the_whole_document() {
        for o in stream::tests::outcomes() {
            let whole: Vec<_> = o.findings.iter().map(convert).collect();
            let want = doc(&o, o.summary, whole);
            assert_eq!(render(&o), want);
            assert_eq!(stream::tests::written(&Printer::new(&o), &o), want);
        }
    }
}
