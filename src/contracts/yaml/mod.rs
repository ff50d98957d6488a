//! YAML parsed into a tree that keeps the span of every key and value.
//!
//! `node` is the tree the rules read. `events` builds it straight from the
//! YAML parser's events (granit-parser, which serde-saphyr sits on);
//! anything it does not read exactly as serde-saphyr would — every error
//! among them — goes to `read`, which builds it through serde-saphyr (YAML
//! 1.2 core schema with strict booleans, duplicate keys as errors, budgets
//! against alias bombs and deep nesting), so both give the same tree and
//! the same located errors.
mod events;
mod node;
mod read;

use crate::source::SourceFile;
pub use node::{Key, Map, Node, Value};
pub use read::YamlError;

/// Parses every document of a YAML stream. Empty documents are skipped.
pub fn parse_documents(src: &SourceFile) -> Result<Vec<Node>, YamlError> {
    match events::parse(&src.text) {
        Some(docs) => Ok(docs),
        None => read::parse_documents(src),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn parse(text: &str) -> (SourceFile, Result<Vec<Node>, YamlError>) {
        let src = SourceFile::new("t.yaml", "t.yaml", text);
        let r = parse_documents(&src);
        (src, r)
    }

    #[test]
    fn keys_and_values_keep_positions() {
        let (src, r) = parse("a: 1\nb:\n  c: \"x\"\n  d: [NO, true]\n");
        let doc = &r.unwrap()[0];
        let c = doc.pointer("/b/c").unwrap();
        assert_eq!(c.as_str(), Some("x"));
        assert_eq!(src.line_col(c.span.start).line, 3);
        assert_eq!(src.line_col(c.span.start).column, 6);
        // Strict YAML 1.2 booleans: NO stays a string.
        assert_eq!(doc.pointer("/b/d/0").unwrap().as_str(), Some("NO"));
        assert_eq!(doc.pointer("/b/d/1").unwrap().as_bool(), Some(true));
        let b = doc.get("b").unwrap();
        assert_eq!(src.line_col(b.label().start).line, 2);
    }

    #[test]
    fn duplicate_key_is_located() {
        let (src, r) = parse("a: 1\na: 2\n");
        let e = r.unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert_eq!(src.line_col(e.span.start).line, 2);
    }

    #[test]
    fn multi_document_and_empty() {
        let (_, r) = parse("a: 1\n---\n---\nb: 2\n");
        assert_eq!(r.unwrap().len(), 2);
        let (_, r) = parse("");
        assert!(r.unwrap().is_empty());
        let (_, r) = parse("# only a comment\n");
        assert!(r.unwrap().is_empty());
    }

    /// The fast reader gives serde-saphyr's tree, spans included, whenever
    /// it gives one; `None` hands the text over.
    fn agrees(text: &str) -> bool {
        // As the workspace reads files: SourceFile drops a leading BOM.
        let src = SourceFile::new("t.yaml", "t.yaml", text);
        match events::parse(&src.text) {
            Some(fast) => {
                let full = read::parse_documents(&src);
                assert_eq!(full.as_ref(), Ok(&fast), "{text:?}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn fast_path_agrees_with_serde_saphyr_on_scalars() {
        let scalars = [
            "x",
            "30d",
            "2026-11-30",
            "10.0.0.1",
            "12:30",
            "1GiB",
            "-",
            "+",
            "-foo",
            "0",
            "-0",
            "+5",
            "7",
            "42",
            "-17",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551615",
            "-9223372036854775808",
            "1.5",
            "-2.25",
            "01.5",
            "0.0",
            "true",
            "True",
            "TRUE",
            "false",
            "FALSE",
            "yes",
            "no",
            "NO",
            "on",
            "off",
            "y",
            "~",
            "null",
            "Null",
            "NULL",
            "nul",
            "e5",
            "x1e5",
            "1.2.3",
            "1-2",
            "1+2",
            "a b c",
            "\"quoted\"",
            "'single'",
            "\"\"",
            "''",
            "\"42\"",
            "'true'",
            "\"a\\nb\"",
            "|\n  lit\n",
            ">\n  folded\n  text\n",
            "[1, a, 2.5]",
            "{a: 1, b: [x]}",
            "[]",
            "{}",
            "@x",
            "`x`",
            "\"tab\\t\"",
            "café",
            "-1.0",
            "100%",
            "1_",
            "2026-11-30T10:00:00Z",
        ];
        let mut fast = 0;
        for s in scalars {
            fast += usize::from(agrees(&format!("k: {s}\n")));
            fast += usize::from(agrees(&format!("- {s}\n- {s}\n")));
        }
        // What the fast reader leaves to serde-saphyr.
        for s in [
            "0x1F",
            "0o17",
            "0b101",
            "1_000",
            "0123",
            "1e5",
            ".5",
            ".inf",
            "-.inf",
            ".nan",
            "nan",
            "inf",
            "Infinity",
            "18446744073709551616",
            "-9223372036854775809",
            "!!str 5",
            "&a 1",
            "1e999",
        ] {
            assert!(!agrees(&format!("k: {s}\n")), "{s}");
            assert!(events::parse(&format!("k: {s}\n")).is_none());
        }
        assert!(fast > 100, "{fast}");
    }

    #[test]
    fn fast_path_agrees_with_serde_saphyr_on_structure() {
        let texts = [
            "a: 1\nb:\n  c: x\n  d:\n    - 1\n    - e: f\n      g: h\n",
            "a:\nb: ~\nc: \n",
            "- - 1\n  - 2\n- []\n",
            "a: {b: [1, 2], c: {d: e}}\n",
            "---\na: 1\n...\n---\n---\nb: 2\n",
            "\u{feff}a: 1\r\nb: héllo\r\n",
            "1: one\n2: two\ntrue: yes\nnull: x\n\"q\": 1\n",
            "k: |\n  line 1\n  line 2\nz: >-\n  a\n  b\n",
            "# c\na: 1 # trailing\n# end\n",
            // Larger than the scan threshold: the key index.
            "a1: 1\na2: 2\na3: 3\na4: 4\na5: 5\na6: 6\na7: 7\na8: 8\na9: 9\nb: {x: 1}\n",
            "",
            "plain text\n",
        ];
        for t in texts {
            assert!(agrees(t), "{t:?}");
        }
        // Left to serde-saphyr: errors, duplicates, anchors, merges, tags,
        // complex keys, deep nesting.
        for t in [
            "a: 1\na: 2\n",
            "a1: 1\na2: 2\na3: 3\na4: 4\na5: 5\na6: 6\na7: 7\na8: 8\na9: 9\na1: 1\n",
            "a: &x 1\nb: *x\n",
            "base: &b {x: 1}\nc:\n  <<: *b\n",
            "a: !!int 5\n",
            "? [a, b]\n: c\n",
            "a: [1, 2\n",
            "a: 'x\n",
            &format!("{}x{}\n", "[".repeat(60), "]".repeat(60)),
        ] {
            assert!(events::parse(t).is_none(), "{t:?}");
        }
    }

    #[test]
    fn fast_path_agrees_with_serde_saphyr_on_the_repository() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut stack = vec![
            root.join("tests"),
            root.join("examples"),
            root.join("rules"),
        ];
        let (mut files, mut fast) = (0, 0);
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                    let Ok(text) = std::fs::read_to_string(&path) else {
                        continue;
                    };
                    files += 1;
                    fast += usize::from(agrees(&text));
                }
            }
        }
        // Nearly every file is plain YAML the fast reader takes.
        assert!(files > 300 && fast * 10 > files * 8, "{fast} of {files}");
    }

    #[test]
    fn big_mapping_lookups_use_the_index() {
        let text: String = (0..50).rev().map(|i| format!("k{i}: {i}\n")).collect();
        let (_, r) = parse(&text);
        let doc = &r.unwrap()[0];
        for i in 0..50 {
            assert_eq!(doc.get(&format!("k{i}")).and_then(Node::as_i64), Some(i));
        }
        assert!(doc.get("k50").is_none() && doc.get("").is_none());
        assert_eq!(doc.entries()[0].0.name, "k49", "source order kept");
    }

    #[test]
    fn crlf_positions() {
        let (src, r) = parse("a: 1\r\nb: hello\r\n");
        let b = r.unwrap()[0].get("b").unwrap().clone();
        let lc = src.line_col(b.span.start);
        assert_eq!((lc.line, lc.column), (2, 4));
        assert_eq!(&src.text[b.span.start..b.span.end], "hello");
    }
}
