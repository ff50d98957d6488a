//! YAML parsed into a tree that keeps the span of every key and value.
//!
//! `node` is the tree the rules read; `read` builds it from the YAML
//! parser (serde-saphyr: YAML 1.2 core schema with strict booleans,
//! duplicate keys as errors, budgets against alias bombs and deep nesting).
mod node;
mod read;

pub use node::{Key, Node, Value};
pub use read::{YamlError, parse_documents};

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

    #[test]
    fn crlf_positions() {
        let (src, r) = parse("a: 1\r\nb: hello\r\n");
        let b = r.unwrap()[0].get("b").unwrap().clone();
        let lc = src.line_col(b.span.start);
        assert_eq!((lc.line, lc.column), (2, 4));
        assert_eq!(&src.text[b.span.start..b.span.end], "hello");
    }
}
