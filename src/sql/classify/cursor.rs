//! A cursor over a statement's significant tokens with the few moves the
//! classifier needs: keywords, names, balanced groups, top-level commas.
use crate::sql::lexer::{Tok, Token};
use crate::sql::ops::Name;

#[derive(Clone, Copy)]
pub struct Cur<'a> {
    pub text: &'a str,
    pub toks: &'a [Token],
    pub i: usize,
}

impl<'a> Cur<'a> {
    pub fn new(text: &'a str, toks: &'a [Token]) -> Self {
        Cur { text, toks, i: 0 }
    }
    pub fn done(&self) -> bool {
        self.i >= self.toks.len()
    }
    pub fn tok(&self, off: usize) -> Option<&'a Token> {
        self.toks.get(self.i + off)
    }
    pub fn raw(&self, t: &Token) -> &'a str {
        &self.text[t.start..t.end]
    }
    /// The word at `off`, lower-cased, if that token is a bare word.
    pub fn word_at(&self, off: usize) -> Option<String> {
        let t = self.tok(off)?;
        (t.kind == Tok::Word).then(|| self.raw(t).to_ascii_lowercase())
    }
    pub fn is(&self, off: usize, kw: &str) -> bool {
        self.tok(off)
            .is_some_and(|t| t.kind == Tok::Word && self.raw(t).eq_ignore_ascii_case(kw))
    }
    pub fn is_punct(&self, off: usize, p: &str) -> bool {
        self.tok(off)
            .is_some_and(|t| t.kind == Tok::Punct && self.raw(t) == p)
    }
    /// Consumes the keywords if they all follow, in order.
    pub fn eat(&mut self, kws: &[&str]) -> bool {
        if kws.iter().enumerate().all(|(k, kw)| self.is(k, kw)) {
            self.i += kws.len();
            true
        } else {
            false
        }
    }
    pub fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(0, p) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub fn bump(&mut self) -> Option<&'a Token> {
        let t = self.tok(0)?;
        self.i += 1;
        Some(t)
    }

    /// One identifier part: a word, a quoted identifier or a placeholder.
    pub fn ident(&mut self) -> Option<String> {
        let t = self.tok(0)?;
        let raw = self.raw(t);
        let s = match t.kind {
            Tok::Word => raw.to_ascii_lowercase(),
            Tok::QuotedIdent => unquote(raw),
            Tok::Placeholder => raw.to_string(),
            // MySQL lets `"…"` and `'…'` name nothing; PostgreSQL never.
            _ => return None,
        };
        self.i += 1;
        Some(s)
    }

    /// A possibly qualified name (`db.schema.table` keeps the last two parts).
    pub fn name(&mut self) -> Option<Name> {
        // The last two parts, without a list of all of them (a name is
        // read for most statements).
        let mut name = self.ident()?;
        let mut schema = None;
        while self.is_punct(0, ".") {
            self.i += 1;
            let next = self.ident()?;
            schema = Some(std::mem::replace(&mut name, next));
        }
        Some(Name {
            schema: schema.map(String::into_boxed_str),
            name,
        })
    }

    /// Skips a balanced `( … )` group if one starts here; returns its inner tokens.
    pub fn group(&mut self) -> Option<&'a [Token]> {
        if !self.is_punct(0, "(") {
            return None;
        }
        let start = self.i + 1;
        let mut depth = 0i32;
        while let Some(t) = self.tok(0) {
            if t.kind == Tok::Punct {
                match self.raw(t) {
                    "(" => depth += 1,
                    ")" => {
                        depth -= 1;
                        if depth == 0 {
                            self.i += 1;
                            return Some(&self.toks[start..self.i - 1]);
                        }
                    }
                    _ => {}
                }
            }
            self.i += 1;
        }
        Some(&self.toks[start..])
    }

    /// The rest of the tokens, split at top-level commas.
    pub fn split_commas(&self) -> Vec<&'a [Token]> {
        split_commas(self.text, &self.toks[self.i.min(self.toks.len())..])
    }

    /// The source text from token `from` to token `to` (exclusive).
    pub fn text_of(&self, toks: &[Token]) -> &'a str {
        match (toks.first(), toks.last()) {
            (Some(a), Some(b)) => &self.text[a.start..b.end],
            _ => "",
        }
    }

    /// Whether any remaining top-level token is the keyword.
    pub fn has_word(&self, kw: &str) -> bool {
        self.toks[self.i.min(self.toks.len())..]
            .iter()
            .any(|t| t.kind == Tok::Word && self.raw(t).eq_ignore_ascii_case(kw))
    }
}

pub fn split_commas<'t>(text: &str, toks: &'t [Token]) -> Vec<&'t [Token]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Tok::Punct {
            continue;
        }
        match &text[t.start..t.end] {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            "," if depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

pub fn unquote(raw: &str) -> String {
    let q = raw.chars().next().unwrap_or('"');
    let inner = raw
        .strip_prefix(q)
        .map(|s| s.strip_suffix(q).unwrap_or(s))
        .unwrap_or(raw);
    let doubled: String = [q, q].iter().collect();
    inner.replace(&doubled, &q.to_string())
}

/// Parentheses balance and nothing runs to the end of the input.
pub fn well_formed(text: &str, toks: &[Token]) -> bool {
    let mut depth = 0i32;
    for t in toks {
        if t.unterminated {
            return false;
        }
        if t.kind == Tok::Punct {
            match &text[t.start..t.end] {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth < 0 {
                        return false;
                    }
                }
                _ => {}
            }
        }
    }
    depth == 0
}
