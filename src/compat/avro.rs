//! Avro schemas (`.avsc`, JSON) parsed into a typed tree with spans. Named
//! types (record, enum, fixed) live in tables; later uses refer to them by
//! full name, which also makes recursive records finite.
use super::ParseError;
use super::json::{self, Json, Value};
use crate::source::Span;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Record(usize),
    Enum(usize),
    Fixed(usize),
    Array(Box<T>),
    Map(Box<T>),
    Union(Vec<T>),
}

/// A type as written at one place of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct T {
    pub ty: Ty,
    pub span: Span,
}

#[derive(Debug)]
pub struct Field {
    pub name: String,
    pub aliases: Vec<String>,
    pub ty: T,
    pub has_default: bool,
    /// The field's `"name"` value.
    pub span: Span,
}

#[derive(Debug)]
pub struct Record {
    pub name: String,
    pub aliases: Vec<String>,
    pub fields: Vec<Field>,
    /// The record's `"name"` value; `fields_span` is its `"fields"` key.
    pub span: Span,
    pub fields_span: Span,
}

#[derive(Debug)]
pub struct Enum {
    pub name: String,
    pub aliases: Vec<String>,
    pub symbols: Vec<String>,
    pub default: Option<String>,
    pub symbols_span: Span,
}

#[derive(Debug)]
pub struct Fixed {
    pub name: String,
    pub aliases: Vec<String>,
    pub size: u64,
}

#[derive(Debug)]
pub struct Schema {
    pub root: T,
    pub records: Vec<Record>,
    pub enums: Vec<Enum>,
    pub fixeds: Vec<Fixed>,
}

impl Schema {
    /// The short display of a type for messages (`int`, `array<string>`,
    /// `[null, string]`, a named type's simple name).
    pub fn show(&self, t: &T) -> String {
        match &t.ty {
            Ty::Null => "null".into(),
            Ty::Boolean => "boolean".into(),
            Ty::Int => "int".into(),
            Ty::Long => "long".into(),
            Ty::Float => "float".into(),
            Ty::Double => "double".into(),
            Ty::Bytes => "bytes".into(),
            Ty::String => "string".into(),
            Ty::Record(i) => simple(&self.records[*i].name).into(),
            Ty::Enum(i) => simple(&self.enums[*i].name).into(),
            Ty::Fixed(i) => simple(&self.fixeds[*i].name).into(),
            Ty::Array(t) => format!("array<{}>", self.show(t)),
            Ty::Map(t) => format!("map<{}>", self.show(t)),
            Ty::Union(b) => {
                let names: Vec<String> = b.iter().map(|t| self.show(t)).collect();
                format!("[{}]", names.join(", "))
            }
        }
    }
}

/// The name without its namespace.
pub fn simple(full: &str) -> &str {
    full.rsplit('.').next().unwrap_or(full)
}

enum Named {
    Record(usize),
    Enum(usize),
    Fixed(usize),
}

struct Parser {
    records: Vec<Record>,
    enums: Vec<Enum>,
    fixeds: Vec<Fixed>,
    names: HashMap<String, Named>,
}

pub fn parse(text: &str) -> Result<Schema, ParseError> {
    let doc = json::parse(text)?;
    let mut p = Parser {
        records: Vec::new(),
        enums: Vec::new(),
        fixeds: Vec::new(),
        names: HashMap::new(),
    };
    let root = p.ty(&doc, "")?;
    Ok(Schema {
        root,
        records: p.records,
        enums: p.enums,
        fixeds: p.fixeds,
    })
}

fn err(span: Span, message: String) -> ParseError {
    ParseError { span, message }
}

fn strings(j: Option<&Json>) -> Vec<String> {
    j.and_then(Json::as_arr)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

impl Parser {
    fn ty(&mut self, j: &Json, ns: &str) -> Result<T, ParseError> {
        let ty = match &j.value {
            Value::Str(name) => self.by_name(name, ns, j.span)?,
            Value::Arr(branches) => {
                let mut out = Vec::new();
                for b in branches {
                    if b.as_arr().is_some() {
                        return Err(err(
                            b.span,
                            "a union cannot directly contain a union".into(),
                        ));
                    }
                    out.push(self.ty(b, ns)?);
                }
                Ty::Union(out)
            }
            Value::Obj(_) => self.complex(j, ns)?,
            _ => {
                return Err(err(
                    j.span,
                    format!(
                        "`{}` is not an Avro type (expected a name, an object or a union array)",
                        j.text()
                    ),
                ));
            }
        };
        Ok(T { ty, span: j.span })
    }

    fn by_name(&self, name: &str, ns: &str, span: Span) -> Result<Ty, ParseError> {
        Ok(match name {
            "null" => Ty::Null,
            "boolean" => Ty::Boolean,
            "int" => Ty::Int,
            "long" => Ty::Long,
            "float" => Ty::Float,
            "double" => Ty::Double,
            "bytes" => Ty::Bytes,
            "string" => Ty::String,
            _ => {
                let qualified = full_name(name, ns);
                let found = self
                    .names
                    .get(&qualified)
                    .or_else(|| self.names.get(name))
                    .ok_or_else(|| {
                        err(
                            span,
                            format!(
                                "unknown type `{name}` (named types must be defined before use)"
                            ),
                        )
                    })?;
                match found {
                    Named::Record(i) => Ty::Record(*i),
                    Named::Enum(i) => Ty::Enum(*i),
                    Named::Fixed(i) => Ty::Fixed(*i),
                }
            }
        })
    }

    fn complex(&mut self, j: &Json, ns: &str) -> Result<Ty, ParseError> {
        let Some(kind) = j.get("type") else {
            return Err(err(j.span, "an Avro type object needs a `type`".into()));
        };
        let Some(kind_name) = kind.as_str() else {
            // {"type": {...}} or {"type": [...]} wraps another type.
            return Ok(self.ty(kind, ns)?.ty);
        };
        match kind_name {
            "record" | "error" | "enum" | "fixed" => self.named(j, kind_name, ns),
            "array" => {
                let items = j
                    .get("items")
                    .ok_or_else(|| err(j.span, "an array needs `items`".into()))?;
                Ok(Ty::Array(Box::new(self.ty(items, ns)?)))
            }
            "map" => {
                let values = j
                    .get("values")
                    .ok_or_else(|| err(j.span, "a map needs `values`".into()))?;
                Ok(Ty::Map(Box::new(self.ty(values, ns)?)))
            }
            // A primitive with attributes, e.g. a logical type: judged by
            // its underlying type, as the registry does.
            other => self.by_name(other, ns, kind.span),
        }
    }

    fn named(&mut self, j: &Json, kind: &str, ns: &str) -> Result<Ty, ParseError> {
        let name_node = j
            .get("name")
            .ok_or_else(|| err(j.span, format!("a {kind} needs a `name`")))?;
        let name = name_node
            .as_str()
            .ok_or_else(|| err(name_node.span, "`name` must be a string".into()))?;
        let ns = match j.get("namespace").and_then(Json::as_str) {
            Some(n) if !name.contains('.') => n.to_string(),
            _ => ns.to_string(),
        };
        let full = full_name(name, &ns);
        if self.names.contains_key(&full) {
            return Err(err(name_node.span, format!("`{full}` is defined twice")));
        }
        let inner_ns = full.rsplit_once('.').map_or("", |(n, _)| n).to_string();
        let aliases = strings(j.get("aliases"));
        match kind {
            "enum" => {
                let symbols_node = j
                    .get("symbols")
                    .ok_or_else(|| err(name_node.span, "an enum needs `symbols`".into()))?;
                let i = self.enums.len();
                self.enums.push(Enum {
                    name: full.clone(),
                    aliases,
                    symbols: strings(Some(symbols_node)),
                    default: j.get("default").and_then(Json::as_str).map(String::from),
                    symbols_span: symbols_node.label(),
                });
                self.names.insert(full, Named::Enum(i));
                Ok(Ty::Enum(i))
            }
            "fixed" => {
                let size = j
                    .get("size")
                    .and_then(Json::as_f64)
                    .ok_or_else(|| err(name_node.span, "a fixed needs a numeric `size`".into()))?;
                let i = self.fixeds.len();
                self.fixeds.push(Fixed {
                    name: full.clone(),
                    aliases,
                    size: size as u64,
                });
                self.names.insert(full, Named::Fixed(i));
                Ok(Ty::Fixed(i))
            }
            _ => {
                let fields_node = j
                    .get("fields")
                    .ok_or_else(|| err(name_node.span, "a record needs `fields`".into()))?;
                let items = fields_node
                    .as_arr()
                    .ok_or_else(|| err(fields_node.span, "`fields` must be an array".into()))?;
                // Registered before its fields so a field may refer to it.
                let i = self.records.len();
                self.records.push(Record {
                    name: full.clone(),
                    aliases,
                    fields: Vec::new(),
                    span: name_node.span,
                    fields_span: fields_node.label(),
                });
                self.names.insert(full, Named::Record(i));
                let mut fields = Vec::new();
                for f in items {
                    fields.push(self.field(f, &inner_ns)?);
                }
                self.records[i].fields = fields;
                Ok(Ty::Record(i))
            }
        }
    }

    fn field(&mut self, f: &Json, ns: &str) -> Result<Field, ParseError> {
        let name_node = f
            .get("name")
            .ok_or_else(|| err(f.span, "a field needs a `name`".into()))?;
        let name = name_node
            .as_str()
            .ok_or_else(|| err(name_node.span, "`name` must be a string".into()))?;
        let ty_node = f
            .get("type")
            .ok_or_else(|| err(name_node.span, format!("field `{name}` needs a `type`")))?;
        Ok(Field {
            name: name.to_string(),
            aliases: strings(f.get("aliases")),
            ty: self.ty(ty_node, ns)?,
            has_default: f.get("default").is_some(),
            span: name_node.span,
        })
    }
}

fn full_name(name: &str, ns: &str) -> String {
    if name.contains('.') || ns.is_empty() {
        name.to_string()
    } else {
        format!("{ns}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_types_namespaces_and_recursion() {
        let s = parse(
            r#"{"type":"record","name":"Node","namespace":"a.b","fields":[
                {"name":"next","type":["null","Node"],"default":null},
                {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["X","Y"]}},
                {"name":"again","type":"a.b.Kind"},
                {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]}"#,
        )
        .unwrap();
        assert_eq!(s.records[0].name, "a.b.Node");
        assert_eq!(s.enums[0].name, "a.b.Kind");
        assert_eq!(s.show(&s.records[0].fields[0].ty), "[null, Node]");
        assert_eq!(s.records[0].fields[2].ty.ty, Ty::Enum(0));
        assert_eq!(s.records[0].fields[3].ty.ty, Ty::Long);
        assert!(s.records[0].fields[0].has_default);
    }

    #[test]
    fn unknown_names_and_bad_shapes_are_located() {
        let text = r#"{"type":"record","name":"R","fields":[{"name":"a","type":"Missing"}]}"#;
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.start..e.span.end], "\"Missing\"");
        assert!(e.message.contains("unknown type `Missing`"));
        let e = parse(r#"{"type":"record","name":"R"}"#).unwrap_err();
        assert!(e.message.contains("needs `fields`"), "{}", e.message);
        assert!(parse("42").is_err());
    }
}
