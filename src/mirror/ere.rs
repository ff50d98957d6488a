//! POSIX extended regular expressions, as GNU `grep -E` reads them in a
//! UTF-8 locale, translated to the `regex` crate's syntax.
//!
//! The gate only needs line-level matching plus the column of the first hit;
//! the leftmost starting position is the same under POSIX leftmost-longest
//! and Rust's leftmost-first, so a faithful translation of the pattern is
//! enough. Where GNU grep is lenient (a `)` without its `(` is a literal,
//! a `{` that does not open a valid interval is a literal, an
//! unknown `\x` escape is the letter `x`) the translation is equally lenient;
//! where grep rejects a pattern we reject it with grep's reason. Refused
//! although GNU grep accepts them: backreferences (no backtracking here), and
//! quantifiers that repeat nothing or an anchor (`*a`, `\b*`, `^+`), which
//! grep warns about and then reads inconsistently.
use regex::{Regex, RegexBuilder};
use std::iter::Peekable;
use std::str::Chars;

/// Compiles a POSIX ERE, or says why it is not one we can match. Memoised
/// for the process: every mirrored document of a repository lists the same
/// forbidden tokens, and compiling them for each of hundreds of documents
/// was most of a one-file run's mirror work (cloning a `Regex` shares it).
pub fn compile(ere: &str) -> Result<Regex, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Memo = Mutex<HashMap<String, Result<Regex, String>>>;
    static MEMO: OnceLock<Memo> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    if let Some(hit) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(ere) {
        return hit.clone();
    }
    // Compiled outside the lock: the other rules' threads go on meanwhile.
    let compiled = compile_uncached(ere);
    memo.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(ere.to_string(), compiled.clone());
    compiled
}

fn compile_uncached(ere: &str) -> Result<Regex, String> {
    let rust = translate(ere)?;
    RegexBuilder::new(&rust)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| format!("too large or not translatable: {e}"))
}

/// The Rust `regex` equivalent of a POSIX ERE.
pub fn translate(ere: &str) -> Result<String, String> {
    let mut p = Parser {
        chars: ere.chars().peekable(),
    };
    let out = p.alternation(0)?;
    match p.chars.next() {
        None => Ok(out),
        // `alternation` only stops early at a `)` closing a group.
        Some(c) => Err(format!("unexpected `{c}`")),
    }
}

struct Parser<'a> {
    chars: Peekable<Chars<'a>>,
}

/// A translated atom and whether a quantifier was already applied to it.
struct Piece {
    text: String,
    quantified: bool,
    /// A zero-width assertion (`\b`, `\<`, `$`, …).
    assertion: bool,
}

/// Deeper than any real gate pattern, far below what overflows a stack.
const MAX_DEPTH: usize = 100;

const REPEATED_ANCHOR: &str = "a quantifier after an anchor (`\\b*`, `$+`, `\\<{2}`) has no portable meaning (GNU grep reads it inconsistently); drop the quantifier";

impl Parser<'_> {
    fn alternation(&mut self, depth: usize) -> Result<String, String> {
        let mut branches = vec![self.branch(depth)?];
        while self.chars.peek() == Some(&'|') {
            self.chars.next();
            branches.push(self.branch(depth)?);
        }
        Ok(branches.join("|"))
    }

    fn branch(&mut self, depth: usize) -> Result<String, String> {
        let mut pieces: Vec<Piece> = Vec::new();
        while let Some(&c) = self.chars.peek() {
            match c {
                '|' => break,
                ')' if depth > 0 => break,
                '*' | '+' | '?' => {
                    self.chars.next();
                    self.quantify(&mut pieces, c.to_string())?;
                }
                // A `{` opening an expression is a literal to POSIX but GNU
                // grep drops it before some bracket expressions: refused.
                '{' if pieces.is_empty() => {
                    return Err(
                        "`{` at the start of an expression is ambiguous in GNU grep; escape it as `\\{`"
                            .into(),
                    );
                }
                '{' => {
                    self.chars.next();
                    match self.interval() {
                        Ok(Some(q)) => self.quantify(&mut pieces, q)?,
                        Ok(None) => pieces.push(literal('{')),
                        // An interval on nothing or on an anchor is refused
                        // for that reason first, whatever its bounds.
                        Err(e) => {
                            self.quantify(&mut pieces, "{…}".into())?;
                            return Err(e);
                        }
                    }
                }
                _ => {
                    let piece = self.atom(depth)?;
                    pieces.push(piece);
                }
            }
        }
        Ok(pieces.into_iter().map(|p| p.text).collect())
    }

    /// Applies a quantifier to the last piece. With nothing to repeat GNU
    /// grep warns and then reads the rest inconsistently (`*{2}[[:alnum:]]`
    /// matches nothing at all), so such a token is refused.
    fn quantify(&self, pieces: &mut [Piece], q: String) -> Result<(), String> {
        let Some(last) = pieces.last_mut() else {
            return Err(format!(
                "`{q}` at the start of an expression repeats nothing (GNU grep warns and reads the rest inconsistently); remove it or escape it"
            ));
        };
        if last.assertion {
            return Err(REPEATED_ANCHOR.into());
        }
        last.text = if last.quantified {
            format!("(?:{}){q}", last.text)
        } else {
            format!("{}{q}", last.text)
        };
        last.quantified = true;
        Ok(())
    }

    /// After a `{`: a valid interval (`{n}`, `{n,}`, `{,m}`, `{n,m}`) as Rust
    /// syntax, or `None` when the brace is a literal (grep's reading).
    fn interval(&mut self) -> Result<Option<String>, String> {
        let mut look = self.chars.clone();
        let mut body = String::new();
        loop {
            match look.next() {
                Some('}') => break,
                Some(c) if c.is_ascii_digit() || c == ',' => body.push(c),
                _ => return Ok(None),
            }
        }
        let (min, max) = match body.split_once(',') {
            None => (body.as_str(), Some(body.as_str())),
            Some((a, b)) if !b.contains(',') => (a, (!b.is_empty()).then_some(b)),
            _ => return Ok(None),
        };
        if min.is_empty() && max.is_none() && !body.contains(',') {
            return Ok(None);
        }
        let parse = |s: &str| -> Result<u32, String> {
            match s.parse::<u32>() {
                Ok(n) if n <= 32767 => Ok(n),
                _ => Err("Regular expression too big (interval bound over 32767)".into()),
            }
        };
        let lo = if min.is_empty() { 0 } else { parse(min)? };
        let hi = max.map(parse).transpose()?;
        if hi.is_some_and(|h| h < lo) {
            return Err("Invalid content of \\{\\} (minimum above maximum)".into());
        }
        self.chars = look;
        Ok(Some(match hi {
            Some(h) if h == lo => format!("{{{lo}}}"),
            Some(h) => format!("{{{lo},{h}}}"),
            None => format!("{{{lo},}}"),
        }))
    }

    fn atom(&mut self, depth: usize) -> Result<Piece, String> {
        let c = self.chars.next().unwrap_or_default();
        let text = match c {
            '(' => {
                // The parser recurses per group: a bound turns a hostile
                // pattern into an error instead of a stack overflow.
                if depth >= MAX_DEPTH {
                    return Err(format!("groups nested more than {MAX_DEPTH} deep"));
                }
                let inner = self.alternation(depth + 1)?;
                if self.chars.next() != Some(')') {
                    return Err("Unmatched ( or \\(".into());
                }
                format!("(?:{inner})")
            }
            '.' | '^' | '$' => c.to_string(),
            '[' => self.bracket()?,
            '\\' => self.escape()?,
            _ => regex::escape(&c.to_string()),
        };
        let assertion = matches!(
            text.as_str(),
            "^" | "$" | r"\b" | r"\B" | r"\b{start}" | r"\b{end}" | r"\A" | r"\z"
        );
        Ok(Piece {
            text,
            quantified: false,
            assertion,
        })
    }

    fn escape(&mut self) -> Result<String, String> {
        let Some(c) = self.chars.next() else {
            return Err("Trailing backslash".into());
        };
        Ok(match c {
            '1'..='9' => {
                return Err(format!(
                    "backreference `\\{c}` (GNU grep accepts it, but it cannot be matched without backtracking; rewrite the token without it)"
                ));
            }
            'b' => r"\b".into(),
            'B' => r"\B".into(),
            '<' => r"\b{start}".into(),
            '>' => r"\b{end}".into(),
            'w' => r"\w".into(),
            'W' => r"\W".into(),
            's' => r"\s".into(),
            'S' => r"\S".into(),
            '`' => r"\A".into(),
            '\'' => r"\z".into(),
            // grep reads any other escaped character as itself.
            _ => regex::escape(&c.to_string()),
        })
    }

    /// A bracket expression after its `[`. Inside brackets a backslash is an
    /// ordinary character, `]` first is a member, and `[:class:]`,
    /// `[.c.]`, `[=c=]` are the POSIX forms.
    fn bracket(&mut self) -> Result<String, String> {
        let mut out = String::from("[");
        if self.chars.peek() == Some(&'^') {
            self.chars.next();
            out.push('^');
        }
        let mut first = true;
        loop {
            let Some(c) = self.chars.next() else {
                return Err("Unmatched [, [^, [:, [., or [=".into());
            };
            if c == ']' && !first {
                break;
            }
            first = false;
            if c == '[' && matches!(self.chars.peek(), Some(':' | '.' | '=')) {
                let kind = self.chars.next().unwrap_or(':');
                let name = self.until_close(kind)?;
                if kind == ':' {
                    out.push_str(posix_class(&name)?);
                    continue;
                }
                let mut it = name.chars();
                match (it.next(), it.next()) {
                    (Some(one), None) => self.member(&mut out, one)?,
                    _ => return Err("Invalid collation character".into()),
                }
                continue;
            }
            self.member(&mut out, c)?;
        }
        out.push(']');
        Ok(out)
    }

    /// A member character, or the start of a range `c-d`.
    fn member(&mut self, out: &mut String, c: char) -> Result<(), String> {
        let mut look = self.chars.clone();
        if look.next() == Some('-')
            && let Some(end) = look.next()
            && end != ']'
        {
            if end < c {
                return Err("Invalid range end".into());
            }
            self.chars = look;
            out.push_str(&regex::escape(&c.to_string()));
            out.push('-');
            out.push_str(&regex::escape(&end.to_string()));
            return Ok(());
        }
        out.push_str(&regex::escape(&c.to_string()));
        Ok(())
    }

    /// The name inside `[:name:]` (or `.`/`=`), consuming the closing `:]`.
    fn until_close(&mut self, kind: char) -> Result<String, String> {
        let mut name = String::new();
        loop {
            match self.chars.next() {
                Some(c) if c == kind && self.chars.peek() == Some(&']') => {
                    self.chars.next();
                    return Ok(name);
                }
                Some(c) => name.push(c),
                None => return Err("Unmatched [, [^, [:, [., or [=".into()),
            }
        }
    }
}

fn literal(c: char) -> Piece {
    Piece {
        text: regex::escape(&c.to_string()),
        quantified: false,
        assertion: false,
    }
}

/// POSIX classes as a UTF-8 locale defines them (so `[[:alnum:]]` matches
/// `é`, like grep under `C.UTF-8`), written as members of a Rust class.
fn posix_class(name: &str) -> Result<&'static str, String> {
    Ok(match name {
        "alpha" => r"\p{Alphabetic}",
        "digit" => "0-9",
        "alnum" => r"\p{Alphabetic}0-9",
        "upper" => r"\p{Uppercase}",
        "lower" => r"\p{Lowercase}",
        "space" => r"\s",
        "blank" => r" \t\p{Zs}",
        "punct" => r"\p{P}\p{S}",
        "cntrl" => r"\p{Cc}",
        "xdigit" => "0-9A-Fa-f",
        "print" => r"[^\p{Cc}]",
        "graph" => r"[^\p{Cc}\s]",
        _ => return Err("Invalid character class name".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(ere: &str, line: &str) -> bool {
        compile(ere)
            .unwrap_or_else(|e| panic!("{ere}: {e}"))
            .is_match(line)
    }

    #[test]
    fn reads_the_gate_idioms() {
        assert!(hit(r"\basyncio\b", "use asyncio here"));
        assert!(!hit(r"\basyncio\b", "use asyncio_x here"));
        assert!(hit(r"set_config\(", "set_config('x')"));
        assert!(hit(r"(^|[^[:alnum:]_])\*?sql\.DB\b", "*sql.DB"));
        assert!(!hit(r"(^|[^[:alnum:]_])\*?sql\.DB\b", "mysql.DB"));
        assert!(hit(r"golang\.org/x/time/rate", "golang.org/x/time/rate"));
        assert!(!hit(r"ctx\.Done", "ctxxDone"));
    }

    #[test]
    fn follows_grep_leniency() {
        assert!(hit("a{", "a{") && hit(r"\{x", "{x"));
        assert!(hit("a{1,2", "a{1,2"));
        assert!(hit("a{,2}b", "aab"));
        assert!(hit("a**", "a"));
        assert!(hit("a{1}{2}", "aa"));
        assert!(hit(r"\d", "d") && !hit(r"\d", "5"));
        assert!(hit(r"[a\]x", r"\x"));
        assert!(hit("[]a]", "]"));
        assert!(hit("a)", "a)"));
        assert!(hit(r"[[.a.]][[=b=]]", "ab"));
        assert!(hit(r"\<x\>", "a x b") && !hit(r"\<x", "ax"));
        assert!(!hit("a^b", "a^b"));
        assert!(hit("[[:alnum:]]", "é"));
    }

    #[test]
    fn never_panics_on_junk() {
        let alphabet: Vec<char> = r"ab\()[]{}|*+?^$.,:-=0123456789<>`'éwWsSbB "
            .chars()
            .collect();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..3_000 {
            let mut s = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for i in 0..(state % 12) {
                s.push(alphabet[((state >> (i * 5)) % alphabet.len() as u64) as usize]);
            }
            if let Ok(re) = compile(&s) {
                let _ = re.find("some text (with) [brackets] and é");
            }
        }
    }

    #[test]
    fn rejects_what_grep_rejects() {
        for bad in [
            "(a",
            "[[:foo:]]",
            "a{2,1}",
            "[z-a]",
            r"\1",
            "[abc",
            "a\\",
            "*a",
            r"\b+",
            "x|{2}a",
        ] {
            assert!(compile(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}a{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert!(compile(&ok).is_ok());
        let deep = format!("{}a{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(compile(&deep).unwrap_err().contains("nested more than"));
    }
}
