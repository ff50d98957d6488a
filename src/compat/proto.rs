//! A parsed `.proto` file, as the compatibility check sees it: messages
//! (nested, by full name), fields, enums and `reserved`, with the named
//! field types resolved against the file's own definitions. The parser is
//! `proto_parse.rs`, the comparison `proto_check.rs`.
use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// proto3 singular or proto2 `optional` (same wire behaviour).
    Optional,
    Required,
    Repeated,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Optional => "optional",
            Label::Required => "required",
            Label::Repeated => "repeated",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub number: i64,
    pub label: Label,
    /// The type as resolved against the file's own definitions (`.pkg.Msg`),
    /// or as written for scalars, maps and imported types.
    pub ty: String,
    pub oneof: Option<String>,
    pub span: Span,
    pub ty_span: Span,
}

#[derive(Debug, Default, Clone)]
pub struct Reserved {
    pub ranges: Vec<(i64, i64)>,
    pub names: Vec<String>,
}

impl Reserved {
    pub fn number(&self, n: i64) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= n && n <= b)
    }
}

#[derive(Debug)]
pub struct Message {
    pub full: String,
    pub span: Span,
    pub parent: Option<usize>,
    pub fields: Vec<Field>,
    pub reserved: Reserved,
}

#[derive(Debug)]
pub struct EnumDef {
    pub full: String,
    pub span: Span,
    pub parent: Option<usize>,
    pub values: Vec<(String, i64, Span)>,
    pub reserved: Reserved,
}

#[derive(Debug, Default)]
pub struct File {
    pub package: String,
    pub messages: Vec<Message>,
    pub enums: Vec<EnumDef>,
    /// Where file-level findings point (the `syntax` or first statement).
    pub head: Span,
}

const SCALARS: [&str; 15] = [
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

/// Rewrites named field types to absolute names (`.pkg.Outer.Inner`) using
/// the file's own definitions and protobuf's scoping (innermost first).
pub fn resolve_types(file: &mut File) {
    let defined: Vec<String> = file
        .messages
        .iter()
        .map(|m| m.full.clone())
        .chain(file.enums.iter().map(|e| e.full.clone()))
        .collect();
    let resolve = |scope: &str, name: &str| -> String {
        if SCALARS.contains(&name) || name.starts_with('.') {
            return name.to_string();
        }
        let mut scope = scope.to_string();
        loop {
            let candidate = if scope.is_empty() {
                name.to_string()
            } else {
                format!("{scope}.{name}")
            };
            if defined.contains(&candidate) {
                return format!(".{candidate}");
            }
            match scope.rfind('.') {
                Some(i) => scope.truncate(i),
                None if !scope.is_empty() => scope.clear(),
                None => return name.to_string(),
            }
        }
    };
    for m in &mut file.messages {
        let scope = m.full.clone();
        for f in &mut m.fields {
            f.ty = match f.ty.strip_prefix("map<").and_then(|s| s.strip_suffix('>')) {
                Some(kv) => {
                    let (k, v) = kv.split_once(", ").unwrap_or((kv, ""));
                    format!("map<{k}, {}>", resolve(&scope, v))
                }
                None => resolve(&scope, &f.ty),
            };
        }
    }
}
