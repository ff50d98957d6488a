//! A small JSON parser that keeps byte spans, so compatibility findings can
//! point at the key or value in the schema file. serde_json drops positions.
use crate::source::Span;

/// Nesting deeper than this is refused: schemas are never that deep, and a
/// hostile file must not overflow the stack.
const MAX_DEPTH: usize = 200;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number as written (`1`, `1.5e3`), and its value.
    Num(String, f64),
    Str(String),
    Arr(Vec<Json>),
    /// Members in file order: name, the span of the quoted name, value.
    Obj(Vec<(String, Span, Json)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Json {
    pub value: Value,
    pub span: Span,
    /// The span of the member name this value is stored under.
    pub key: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    pub offset: usize,
    pub message: String,
}

impl Json {
    pub fn get(&self, name: &str) -> Option<&Json> {
        match &self.value {
            Value::Obj(m) => m.iter().find(|(k, _, _)| k == name).map(|(_, _, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_arr(&self) -> Option<&[Json]> {
        match &self.value {
            Value::Arr(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match &self.value {
            Value::Num(_, n) => Some(*n),
            _ => None,
        }
    }
    pub fn members(&self) -> &[(String, Span, Json)] {
        match &self.value {
            Value::Obj(m) => m,
            _ => &[],
        }
    }
    /// Where a finding about this value should point: its key when it has
    /// one (`"fields":`), else the value itself.
    pub fn label(&self) -> Span {
        self.key.unwrap_or(self.span)
    }
    /// The value as compact JSON text, for messages and structural equality.
    pub fn text(&self) -> String {
        match &self.value {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Num(raw, _) => raw.clone(),
            Value::Str(s) => serde_json::Value::String(s.clone()).to_string(),
            Value::Arr(a) => {
                let items: Vec<String> = a.iter().map(Json::text).collect();
                format!("[{}]", items.join(","))
            }
            Value::Obj(m) => {
                let items: Vec<String> = m
                    .iter()
                    .map(|(k, _, v)| {
                        format!("{}:{}", serde_json::Value::String(k.clone()), v.text())
                    })
                    .collect();
                format!("{{{}}}", items.join(","))
            }
        }
    }
}

pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> JsonError {
        JsonError {
            offset: self.i.min(self.s.len()),
            message: message.to_string(),
        }
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        let start = self.i;
        let value = match self.s.get(self.i) {
            None => return Err(self.err("unexpected end of file, expected a value")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number()?,
            Some(_) => return Err(self.err("expected a JSON value")),
        };
        Ok(Json {
            value,
            span: Span::new(start, self.i),
            key: None,
        })
    }
    fn word(&mut self, w: &str, v: Value) -> Result<Value, JsonError> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("expected a JSON value"))
        }
    }
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        while self.i < self.s.len()
            && matches!(
                self.s[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        let raw = &self.text[start..self.i];
        match raw.parse::<f64>() {
            Ok(n) => Ok(Value::Num(raw.to_string(), n)),
            Err(_) => {
                self.i = start;
                Err(self.err(&format!("`{raw}` is not a number")))
            }
        }
    }
    fn string(&mut self) -> Result<String, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                self.i = open;
                return Err(self.err("string is never closed"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    let esc = self.s.get(self.i + 1).copied();
                    self.i += 2;
                    match esc {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hex = self.text.get(self.i..self.i + 4).unwrap_or("");
                            let code = u32::from_str_radix(hex, 16)
                                .map_err(|_| self.err("invalid \\u escape"))?;
                            self.i += 4;
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            self.i -= 2;
                            return Err(self.err("invalid escape in string"));
                        }
                    }
                }
                c if c < 0x20 => return Err(self.err("control character in string")),
                _ => {
                    // Copy one whole UTF-8 character; the text is valid UTF-8.
                    let ch = self.text[self.i..].chars().next().unwrap_or('\u{fffd}');
                    out.push(ch);
                    self.i += ch.len_utf8();
                }
            }
        }
    }
    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(Value::Arr(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Arr(items));
                }
                _ => return Err(self.err("expected `,` or `]` in array")),
            }
        }
    }
    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.i += 1;
        let mut members: Vec<(String, Span, Json)> = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Value::Obj(members));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.err("expected a quoted member name"));
            }
            let kstart = self.i;
            let name = self.string()?;
            let kspan = Span::new(kstart, self.i);
            self.ws();
            if self.s.get(self.i) != Some(&b':') {
                return Err(self.err("expected `:` after the member name"));
            }
            self.i += 1;
            self.ws();
            let mut v = self.value(depth + 1)?;
            v.key = Some(kspan);
            if members.iter().any(|(k, _, _)| *k == name) {
                self.i = kstart;
                return Err(self.err(&format!("duplicate member `{name}`")));
            }
            members.push((name, kspan, v));
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::Obj(members));
                }
                _ => return Err(self.err("expected `,` or `}` in object")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_spans_of_keys_and_values() {
        let text = "{\"a\": [1, {\"b\": \"x\"}]}";
        let j = parse(text).unwrap();
        let a = j.get("a").unwrap();
        assert_eq!(&text[a.key.unwrap().start..a.key.unwrap().end], "\"a\"");
        let b = a.as_arr().unwrap()[1].get("b").unwrap();
        assert_eq!(&text[b.span.start..b.span.end], "\"x\"");
        assert_eq!(j.text(), "{\"a\":[1,{\"b\":\"x\"}]}");
    }

    #[test]
    fn errors_are_located_not_panics() {
        for (bad, at) in [
            ("{\"a\": }", 6),
            ("[1, 2", 5),
            ("{\"a\": \"é", 6),
            ("{\"a\":1,\"a\":2}", 7),
            ("", 0),
            ("\"\\u12\"", 3),
        ] {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.offset, at, "{bad}: {}", e.message);
        }
        let deep = "[".repeat(10_000);
        assert_eq!(parse(&deep).unwrap_err().message, "nested too deeply");
    }
}
