//! A small `.proto` parser for compatibility checks: syntax, package,
//! messages (nested), fields, map fields, oneofs, enums and `reserved`.
//! Options, imports, services and extensions are skipped; anything else
//! (groups, editions) is a located error rather than a guess.
use super::ParseError;
use super::proto::{EnumDef, Field, File, Label, Message, Reserved, resolve_types};
use super::proto_lex::{Tok, lex};
use crate::source::Span;

pub fn parse(text: &str) -> Result<File, ParseError> {
    let lx = lex(text)?;
    let mut p = P {
        toks: lx.toks,
        i: 0,
        end: text.len(),
        file: File::default(),
    };
    p.file.head = p.toks.first().map_or(Span::empty(0), |t| t.1);
    p.top()?;
    resolve_types(&mut p.file);
    Ok(p.file)
}

struct P {
    toks: Vec<(Tok, Span)>,
    i: usize,
    end: usize,
    file: File,
}

impl P {
    fn span(&self) -> Span {
        self.toks
            .get(self.i)
            .map_or(Span::new(self.end, self.end), |t| t.1)
    }
    fn err<T>(&self, message: String) -> Result<T, ParseError> {
        Err(ParseError {
            span: self.span(),
            message,
        })
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }
    fn next(&mut self) -> Option<(Tok, Span)> {
        let t = self.toks.get(self.i).cloned();
        self.i += 1;
        t
    }
    fn is_sym(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Sym(c))
    }
    fn sym(&mut self, c: char) -> Result<Span, ParseError> {
        if self.is_sym(c) {
            return Ok(self.next().map(|t| t.1).unwrap_or_default());
        }
        let message = format!("expected `{c}`{}", self.found());
        match self.toks.get(self.i.wrapping_sub(1)) {
            // A missing `;` belongs at the end of the statement, not on the next line.
            Some((_, prev)) if c == ';' => Err(ParseError {
                span: Span::new(prev.end, prev.end),
                message,
            }),
            _ => self.err(message),
        }
    }
    fn found(&self) -> String {
        match self.peek() {
            None => ", found the end of the file".into(),
            Some(Tok::Ident(s)) | Some(Tok::Str(s)) => format!(", found `{s}`"),
            Some(Tok::Int(n)) => format!(", found `{n}`"),
            Some(Tok::Sym(c)) => format!(", found `{c}`"),
        }
    }
    fn ident(&mut self) -> Result<(String, Span), ParseError> {
        match self.peek() {
            Some(Tok::Ident(_)) => match self.next() {
                Some((Tok::Ident(s), sp)) => Ok((s, sp)),
                _ => self.err("expected a name".into()),
            },
            _ => self.err(format!("expected a name{}", self.found())),
        }
    }
    fn int(&mut self) -> Result<i64, ParseError> {
        let neg = self.is_sym('-');
        if neg {
            self.i += 1;
        }
        match self.peek() {
            Some(Tok::Int(n)) => {
                let n = *n;
                self.i += 1;
                Ok(if neg { -n } else { n })
            }
            _ => self.err(format!("expected a number{}", self.found())),
        }
    }
    /// Skips a statement up to its `;`, or a `{ … }` block, balanced.
    fn skip_statement(&mut self) -> Result<(), ParseError> {
        let start = self.span();
        let mut depth = 0usize;
        while let Some((t, _)) = self.next() {
            match t {
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Tok::Sym(';') if depth == 0 => return Ok(()),
                _ => {}
            }
        }
        Err(ParseError {
            span: start,
            message: "statement is never ended (missing `;` or `}`)".into(),
        })
    }

    fn top(&mut self) -> Result<(), ParseError> {
        while let Some(tok) = self.peek().cloned() {
            match tok {
                Tok::Sym(';') => self.i += 1,
                Tok::Ident(w) if w == "syntax" => {
                    self.file.head = self.span();
                    self.skip_statement()?;
                }
                Tok::Ident(w) if w == "package" => {
                    self.i += 1;
                    self.file.package = self.ident()?.0;
                    self.sym(';')?;
                }
                Tok::Ident(w)
                    if ["import", "option", "service", "extend"].contains(&w.as_str()) =>
                {
                    self.skip_statement()?
                }
                Tok::Ident(w) if w == "message" => self.message(None)?,
                Tok::Ident(w) if w == "enum" => self.enumeration(None)?,
                _ => return self.err(format!("unsupported top-level statement{}", self.found())),
            }
        }
        Ok(())
    }

    fn nesting(&self, mut parent: Option<usize>) -> usize {
        let mut n = 0;
        while let Some(p) = parent {
            n += 1;
            parent = self.file.messages[p].parent;
        }
        n
    }

    fn scope(&self, parent: Option<usize>) -> String {
        match parent {
            Some(p) => self.file.messages[p].full.clone(),
            None => self.file.package.clone(),
        }
    }

    fn message(&mut self, parent: Option<usize>) -> Result<(), ParseError> {
        // Nesting is recursion here; a hostile file must not overflow the stack.
        if self.nesting(parent) > 64 {
            return self.err("messages nested more than 64 deep".into());
        }
        self.i += 1;
        let (name, span) = self.ident()?;
        let full = join(&self.scope(parent), &name);
        let me = self.file.messages.len();
        self.file.messages.push(Message {
            full,
            span,
            parent,
            fields: Vec::new(),
            reserved: Reserved::default(),
        });
        self.sym('{')?;
        loop {
            match self.peek().cloned() {
                None => return self.err("message is never closed (missing `}`)".into()),
                Some(Tok::Sym('}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Tok::Sym(';')) => self.i += 1,
                Some(Tok::Ident(w)) => match w.as_str() {
                    "message" => self.message(Some(me))?,
                    "enum" => self.enumeration(Some(me))?,
                    "option" | "extensions" | "extend" => self.skip_statement()?,
                    "reserved" => {
                        let r = self.reserved()?;
                        let slot = &mut self.file.messages[me].reserved;
                        slot.ranges.extend(r.ranges);
                        slot.names.extend(r.names);
                    }
                    "oneof" => self.oneof(me)?,
                    _ => {
                        let f = self.field(None)?;
                        self.file.messages[me].fields.push(f);
                    }
                },
                Some(_) => return self.err(format!("expected a field or `}}`{}", self.found())),
            }
        }
    }

    fn oneof(&mut self, me: usize) -> Result<(), ParseError> {
        self.i += 1;
        let (name, _) = self.ident()?;
        self.sym('{')?;
        loop {
            match self.peek() {
                None => return self.err("oneof is never closed (missing `}`)".into()),
                Some(Tok::Sym('}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Tok::Sym(';')) => self.i += 1,
                Some(Tok::Ident(w)) if w == "option" => self.skip_statement()?,
                _ => {
                    let f = self.field(Some(name.clone()))?;
                    self.file.messages[me].fields.push(f);
                }
            }
        }
    }

    fn field(&mut self, oneof: Option<String>) -> Result<Field, ParseError> {
        let mut label = Label::Optional;
        if let Some(Tok::Ident(w)) = self.peek() {
            let l = match w.as_str() {
                "optional" => Some(Label::Optional),
                "required" => Some(Label::Required),
                "repeated" => Some(Label::Repeated),
                _ => None,
            };
            if let Some(l) = l {
                label = l;
                self.i += 1;
            }
        }
        let (mut ty, ty_span) = self.ident()?;
        if ty == "group" {
            return Err(ParseError {
                span: ty_span,
                message: "proto2 groups are not supported; use a nested message".into(),
            });
        }
        if ty == "map" {
            self.sym('<')?;
            let (k, _) = self.ident()?;
            self.sym(',')?;
            let (v, _) = self.ident()?;
            self.sym('>')?;
            ty = format!("map<{k}, {v}>");
        }
        let (name, span) = self.ident()?;
        self.sym('=')?;
        let number = self.int()?;
        if self.is_sym('[') {
            while !self.is_sym(']') {
                if self.next().is_none() {
                    return self.err("field options are never closed (missing `]`)".into());
                }
            }
            self.i += 1;
        }
        self.sym(';')?;
        Ok(Field {
            name,
            number,
            label,
            ty,
            oneof,
            span,
            ty_span,
        })
    }

    fn reserved(&mut self) -> Result<Reserved, ParseError> {
        self.i += 1;
        let mut r = Reserved::default();
        loop {
            match self.peek().cloned() {
                Some(Tok::Str(s)) => {
                    self.i += 1;
                    r.names.push(s);
                }
                Some(Tok::Ident(s)) => {
                    self.i += 1;
                    r.names.push(s);
                }
                _ => {
                    let a = self.int()?;
                    let mut b = a;
                    if self.peek() == Some(&Tok::Ident("to".into())) {
                        self.i += 1;
                        b = if self.peek() == Some(&Tok::Ident("max".into())) {
                            self.i += 1;
                            i64::MAX
                        } else {
                            self.int()?
                        };
                    }
                    r.ranges.push((a, b));
                }
            }
            if self.is_sym(',') {
                self.i += 1;
            } else {
                self.sym(';')?;
                return Ok(r);
            }
        }
    }

    fn enumeration(&mut self, parent: Option<usize>) -> Result<(), ParseError> {
        self.i += 1;
        let (name, span) = self.ident()?;
        let mut e = EnumDef {
            full: join(&self.scope(parent), &name),
            span,
            parent,
            values: Vec::new(),
            reserved: Reserved::default(),
        };
        self.sym('{')?;
        loop {
            match self.peek().cloned() {
                None => return self.err("enum is never closed (missing `}`)".into()),
                Some(Tok::Sym('}')) => {
                    self.i += 1;
                    self.file.enums.push(e);
                    return Ok(());
                }
                Some(Tok::Sym(';')) => self.i += 1,
                Some(Tok::Ident(w)) if w == "option" => self.skip_statement()?,
                Some(Tok::Ident(w)) if w == "reserved" => {
                    let r = self.reserved()?;
                    e.reserved.ranges.extend(r.ranges);
                    e.reserved.names.extend(r.names);
                }
                _ => {
                    let (v, vspan) = self.ident()?;
                    self.sym('=')?;
                    let n = self.int()?;
                    if self.is_sym('[') {
                        self.skip_to(']')?;
                    }
                    self.sym(';')?;
                    e.values.push((v, n, vspan));
                }
            }
        }
    }

    fn skip_to(&mut self, c: char) -> Result<(), ParseError> {
        while !self.is_sym(c) {
            if self.next().is_none() {
                return self.err(format!("missing `{c}`"));
            }
        }
        self.i += 1;
        Ok(())
    }
}

fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_messages_fields_oneofs_reserved_and_enums() {
        let f = parse(
            r#"syntax = "proto2";
            package shop.v1;
            import "google/protobuf/timestamp.proto";
            option go_package = "x/y";
            /* block */ message Order {
              required string id = 1 [deprecated = true];
              optional Customer customer = 2; // trailing
              repeated Line lines = 3;
              map<string, int64> tags = 4;
              oneof pay { string card = 5; Status status = 6; }
              reserved 7, 9 to 11, max_dummy;
              message Line { optional string sku = 1; }
              enum Status { UNKNOWN = 0; PAID = 1; reserved 2; }
            }
            message Customer { optional string email = 1; }"#,
        )
        .unwrap();
        let o = &f.messages[0];
        assert_eq!(o.full, "shop.v1.Order");
        assert_eq!(o.fields.len(), 6);
        assert_eq!(o.fields[0].label, Label::Required);
        assert_eq!(o.fields[1].ty, ".shop.v1.Customer");
        assert_eq!(o.fields[2].ty, ".shop.v1.Order.Line");
        assert_eq!(o.fields[3].ty, "map<string, int64>");
        assert_eq!(o.fields[5].oneof.as_deref(), Some("pay"));
        assert_eq!(o.fields[5].ty, ".shop.v1.Order.Status");
        assert!(o.reserved.number(10) && !o.reserved.number(8));
        assert_eq!(f.enums[0].values.len(), 2);
    }

    #[test]
    fn unsupported_syntax_is_a_located_error() {
        let text = "message A {\n  optional group G = 1 { }\n}";
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.start..e.span.end], "group");
        let e = parse("message A { string a = 1 }").unwrap_err();
        assert!(e.message.contains("expected `;`"), "{}", e.message);
        assert!(parse("message A { string a = 1;").is_err());
        assert!(parse("edition = \"2023\"; ").is_err());
        assert!(parse("message A { string s = \"x").is_err());
        let deep = "message A {".repeat(10_000);
        assert!(parse(&deep).unwrap_err().message.contains("nested"));
    }
}
