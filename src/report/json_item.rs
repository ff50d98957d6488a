//! One finding of output v1 written as serde_json's pretty printer writes
//! it, byte for byte, straight into the output: serde's printer, its
//! escaping and re-indenting each item were 20% of a 20k-statement JSON
//! run. The tests compare the two on every field and awkward strings.
use super::JsonFinding;

/// Whether any of the eight bytes of `w` needs escaping: serde_json
/// escapes only `"`, `\` and C0 controls.
fn needs_escape(w: u64) -> bool {
    use crate::bytes::{has_below, has_byte};
    has_below(w, 0x20) || has_byte(w, b'"') || has_byte(w, b'\\')
}

/// `s` as a JSON string, escaped as serde_json escapes it.
pub(super) fn string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    out.push('"');
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        if let Some(w) = crate::bytes::word(b, i)
            && !needs_escape(w)
        {
            i += 8;
            continue;
        }
        let short = match b[i] {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        // `i` is at an ASCII byte: a char boundary, as is `start`.
        out.push_str(&s[start..i]);
        if short.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b[i] >> 4)]));
            out.push(char::from(HEX[usize::from(b[i] & 0xf)]));
        } else {
            out.push_str(short);
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

fn number(out: &mut String, n: usize) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// An object's members at `depth`, each line after `indent`.
struct Obj<'a> {
    out: &'a mut String,
    indent: &'a str,
    depth: usize,
    first: bool,
}

impl<'a> Obj<'a> {
    fn open(out: &'a mut String, indent: &'a str, depth: usize) -> Obj<'a> {
        out.push('{');
        Obj {
            out,
            indent,
            depth: depth + 1,
            first: true,
        }
    }
    fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        line(self.out, self.indent, self.depth);
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\": ");
        self.out
    }
    fn str(&mut self, key: &str, value: &str) {
        string(self.key(key), value);
    }
    fn num(&mut self, key: &str, value: usize) {
        number(self.key(key), value);
    }
    fn bool(&mut self, key: &str, value: bool) {
        self.key(key).push_str(if value { "true" } else { "false" });
    }
    fn close(self) {
        if !self.first {
            line(self.out, self.indent, self.depth - 1);
        }
        self.out.push('}');
    }
}

fn line(out: &mut String, indent: &str, depth: usize) {
    out.push('\n');
    out.push_str(indent);
    for _ in 0..depth {
        out.push_str("  ");
    }
}

impl JsonFinding<'_> {
    /// What `stream::push_indented(out, &to_string_pretty(self), indent)`
    /// writes.
    pub(crate) fn write_pretty(&self, out: &mut String, indent: &str) {
        out.push_str(indent);
        let mut o = Obj::open(out, indent, 0);
        o.str("rule", self.rule);
        o.str("name", self.name);
        o.str("severity", self.severity);
        o.str("file", self.file);
        o.num("line", self.line);
        o.num("column", self.column);
        o.num("end_line", self.end_line);
        o.num("end_column", self.end_column);
        o.str("message", self.message);
        if let Some(h) = self.help {
            o.str("help", h);
        }
        if let Some(c) = self.contract {
            let mut c2 = Obj::open(o.key("contract"), indent, 1);
            c2.str("kind", &c.kind);
            c2.str("name", &c.name);
            c2.close();
        }
        if let Some(p) = self.pointer {
            o.str("pointer", p);
        }
        if let Some(s) = self.statement {
            let mut s2 = Obj::open(o.key("statement"), indent, 1);
            s2.num("index", s.index);
            s2.str("kind", &s.kind);
            s2.close();
        }
        if let Some(locks) = self.locks {
            let out = o.key("locks");
            if locks.is_empty() {
                out.push_str("[]");
            } else {
                out.push('[');
                for (i, l) in locks.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    line(out, indent, 2);
                    let mut l2 = Obj::open(out, indent, 2);
                    l2.str("relation", &l.relation);
                    l2.str("mode", &l.mode);
                    l2.close();
                }
                line(out, indent, 1);
                out.push(']');
            }
        }
        if let Some(r) = self.rewrite {
            o.bool("rewrite", r);
        }
        if let Some(s) = self.scan {
            o.bool("scan", s);
        }
        o.str("url", &self.url);
        o.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{ContractRef, LockFact, StatementRef};

    fn serde_at(f: &JsonFinding, indent: &str) -> String {
        let text = serde_json::to_string_pretty(f).unwrap();
        let lines: Vec<String> = text.split('\n').map(|l| format!("{indent}{l}")).collect();
        lines.join("\n")
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut awkward: Vec<String> = (0u32..0x100)
            .chain([0x2028, 0x2029, 0xfeff, 0x1f600])
            .filter_map(char::from_u32)
            .map(|c| c.to_string())
            .collect();
        awkward.push(String::new());
        // Every char at every position of an eight-byte word.
        for c in (0u32..0x80).filter_map(char::from_u32) {
            for pad in 0..9 {
                awkward.push(format!("{}{c}{}", "a".repeat(pad), "é".repeat(pad)));
            }
        }
        awkward.push("say \"hi\" \\ to\tthe\r\nworld\u{7f}\u{1b}[31m ✓ ".repeat(5));
        for s in &awkward {
            let mut out = String::new();
            string(&mut out, s);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn a_finding_is_written_as_serde_json_pretty_prints_it() {
        let contract = ContractRef {
            kind: "Service\"".into(),
            name: "payments\n".into(),
        };
        let statement = StatementRef {
            index: 12_345_678_901,
            kind: "ALTER TABLE".into(),
        };
        let locks = [
            LockFact {
                relation: "t\\1".into(),
                mode: "ACCESS EXCLUSIVE".into(),
            },
            LockFact {
                relation: "t2".into(),
                mode: "SHARE".into(),
            },
        ];
        let full = JsonFinding {
            rule: "MG013",
            name: "set-not-null-scan",
            severity: "error",
            file: "dir/\u{1}odd \"name\".sql",
            line: 1,
            column: 0,
            end_line: 10,
            end_column: usize::MAX,
            message: "a\tb\u{1b}c é",
            help: Some(""),
            contract: Some(&contract),
            pointer: Some("/spec/0"),
            statement: Some(&statement),
            locks: Some(&locks),
            rewrite: Some(false),
            scan: Some(true),
            url: "https://example.com/MG013.md".into(),
        };
        let bare = JsonFinding {
            help: None,
            contract: None,
            pointer: None,
            statement: None,
            locks: None,
            rewrite: None,
            scan: None,
            url: full.url.clone(),
            ..full
        };
        let no_locks = JsonFinding {
            locks: Some(&[]),
            help: Some("h"),
            url: String::new(),
            ..bare
        };
        for f in [&full, &bare, &no_locks] {
            for indent in ["", "    ", "\t"] {
                let mut out = String::from("x");
                f.write_pretty(&mut out, indent);
                assert_eq!(out, format!("x{}", serde_at(f, indent)));
            }
        }
    }
}
