//! Payload-schema compatibility (EV053): compares the working tree's schema
//! file with earlier versions from git, with the Confluent Schema Registry's
//! meaning of the modes. Backward: the new schema can read data written with
//! the old one. Forward: the old schema can read data written with the new
//! one. Full: both. `*-transitive`: against every earlier version, not just
//! the base revision's.
//!
//! Each format module turns (old, new) into `Break`s that say which
//! direction they break, located in the new file; the rule keeps the breaks
//! its mode cares about.
pub mod avro;
mod avro_check;
pub mod git;
pub mod json;
pub mod jsonschema;
mod jsonschema_object;
pub mod prepare;
pub mod proto;
mod proto_check;
mod proto_lex;
pub mod proto_parse;

pub use prepare::{BaseError, prepare};

use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Avro,
    JsonSchema,
    Protobuf,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "avro" => Some(Format::Avro),
            "json-schema" => Some(Format::JsonSchema),
            "protobuf" => Some(Format::Protobuf),
            _ => None,
        }
    }
    /// The format a file's extension implies, when the contract omits it.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "avsc" => Some(Format::Avro),
            "json" => Some(Format::JsonSchema),
            "proto" => Some(Format::Protobuf),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Avro => "Avro",
            Format::JsonSchema => "JSON Schema",
            Format::Protobuf => "protobuf",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Backward,
    Forward,
    Full,
    BackwardTransitive,
    ForwardTransitive,
    FullTransitive,
    None,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "backward" => Mode::Backward,
            "forward" => Mode::Forward,
            "full" => Mode::Full,
            "backward-transitive" => Mode::BackwardTransitive,
            "forward-transitive" => Mode::ForwardTransitive,
            "full-transitive" => Mode::FullTransitive,
            "none" => Mode::None,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Backward => "backward",
            Mode::Forward => "forward",
            Mode::Full => "full",
            Mode::BackwardTransitive => "backward-transitive",
            Mode::ForwardTransitive => "forward-transitive",
            Mode::FullTransitive => "full-transitive",
            Mode::None => "none",
        }
    }
    pub fn transitive(self) -> bool {
        matches!(
            self,
            Mode::BackwardTransitive | Mode::ForwardTransitive | Mode::FullTransitive
        )
    }
    fn backward(self) -> bool {
        matches!(
            self,
            Mode::Backward | Mode::Full | Mode::BackwardTransitive | Mode::FullTransitive
        )
    }
    fn forward(self) -> bool {
        matches!(
            self,
            Mode::Forward | Mode::Full | Mode::ForwardTransitive | Mode::FullTransitive
        )
    }
    /// Whether this mode rejects `b`.
    pub fn rejects(self, b: &Break) -> bool {
        (self.backward() && b.backward) || (self.forward() && b.forward)
    }
}

/// JSON Schema only: whether adding or removing a property of an open
/// content model counts as a change (strict, Confluent's default) or is
/// assumed unused by the other side (lenient).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Strict,
    Lenient,
}

/// One incompatible change between an old and a new schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// The field path (`OrderConfirmed.customer.email`, `items[].sku`).
    pub path: String,
    /// What changed, in old-to-new terms ("type changed from int to string").
    pub change: String,
    /// Where in the new file: the field, or for a removal its enclosing
    /// record/message/properties.
    pub span: Span,
    /// New readers cannot read data written with the old schema.
    pub backward: bool,
    /// Old readers cannot read data written with the new schema.
    pub forward: bool,
}

impl Break {
    /// Which side fails, for messages.
    pub fn why(&self) -> &'static str {
        match (self.backward, self.forward) {
            (true, true) => "neither side can read the other's data",
            (true, false) => "the new schema cannot read data written with the old one",
            _ => "the old schema cannot read data written with the new one",
        }
    }
}

/// What comparing two versions found: breaks, and remarks that are not
/// breaks (a renamed protobuf field is binary-compatible).
#[derive(Debug, Default)]
pub struct Diff {
    pub breaks: Vec<Break>,
    pub notes: Vec<String>,
}

/// A schema file that cannot be read, located by byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

impl From<json::JsonError> for ParseError {
    fn from(e: json::JsonError) -> Self {
        ParseError {
            span: Span::new(e.offset, e.offset + 1),
            message: format!("JSON syntax: {}", e.message),
        }
    }
}

/// Parses a schema without comparing it (to report unreadable files even
/// without `--base`).
pub fn check_syntax(format: Format, text: &str) -> Result<(), ParseError> {
    match format {
        Format::Avro => avro::parse(text).map(|_| ()),
        Format::JsonSchema => jsonschema::parse(text).map(|_| ()),
        Format::Protobuf => proto_parse::parse(text).map(|_| ()),
    }
}

/// Compares `old` with `new`. An error names the side that failed to parse
/// (`Err((true, e))` for the old text).
pub fn compare(
    format: Format,
    old: &str,
    new: &str,
    policy: Policy,
) -> Result<Diff, (bool, ParseError)> {
    match format {
        Format::Avro => {
            let o = avro::parse(old).map_err(|e| (true, e))?;
            let n = avro::parse(new).map_err(|e| (false, e))?;
            Ok(Diff {
                breaks: avro_check::compare(&o, &n),
                notes: Vec::new(),
            })
        }
        Format::JsonSchema => {
            let o = jsonschema::parse(old).map_err(|e| (true, e))?;
            let n = jsonschema::parse(new).map_err(|e| (false, e))?;
            Ok(Diff {
                breaks: jsonschema::compare(&o, &n, policy),
                notes: Vec::new(),
            })
        }
        Format::Protobuf => {
            let o = proto_parse::parse(old).map_err(|e| (true, e))?;
            let n = proto_parse::parse(new).map_err(|e| (false, e))?;
            Ok(proto_check::compare(&o, &n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad input never panics: every prefix of real schemas, in every
    /// format's parser and in the comparison against the whole file.
    #[test]
    fn truncated_files_never_panic() {
        let samples = [
            include_str!("../../examples/violations/schemas/order_confirmed.avsc"),
            include_str!("../../examples/violations/schemas/payment_captured.json"),
            "syntax = \"proto2\";\npackage a.b;\n/* c */ message M { required string s = 1 [x = \"é\"]; oneof o { int32 i = 2; } reserved 3 to max; enum E { A = 0; } }\n",
        ];
        let formats = [Format::Avro, Format::JsonSchema, Format::Protobuf];
        for text in samples {
            for (i, _) in text.char_indices() {
                for f in formats {
                    let _ = check_syntax(f, &text[..i]);
                    let _ = compare(f, &text[..i], text, Policy::Strict);
                    let _ = compare(f, text, &text[..i], Policy::Lenient);
                }
            }
        }
    }
}
