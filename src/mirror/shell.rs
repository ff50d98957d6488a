//! Just enough POSIX shell reading to take a document's embedded
//! `awk '/boundary/{exit} 1' FILE | grep -nE '(…)'` command apart: words with
//! single quotes, double quotes, backslashes and line continuations.

/// A shell word, or the pipe between commands.
#[derive(Debug, PartialEq, Eq)]
pub enum Word {
    Text(String),
    Pipe,
}

/// Splits a command line into words. `None` when a quote is left open.
pub fn words(cmd: &str) -> Option<Vec<Word>> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        x => w.push(x),
                    }
                }
            }
            '"' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`' | '\n')) => {
                            let x = chars.next()?;
                            if x != '\n' {
                                w.push(x);
                            }
                        }
                        x => w.push(x),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(x) => cur.get_or_insert_with(String::new).push(x),
            },
            '|' => {
                out.extend(cur.take().map(Word::Text));
                out.push(Word::Pipe);
            }
            c if c.is_whitespace() => out.extend(cur.take().map(Word::Text)),
            c => cur.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(cur.take().map(Word::Text));
    Some(out)
}

/// What the gate command says: the awk boundary regex, the file it reads,
/// and the grep pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateCommand {
    pub awk_pattern: Option<String>,
    pub file: Option<String>,
    pub grep_pattern: String,
}

/// Reads `awk PROG FILE | grep [-nE…] PATTERN` (the awk half is optional).
pub fn gate_command(cmd: &str) -> Option<GateCommand> {
    let words = words(cmd)?;
    let mut stages = words.split(|w| *w == Word::Pipe);
    let mut awk_pattern = None;
    let mut file = None;
    let mut grep_pattern = None;
    for stage in stages.by_ref() {
        let texts: Vec<&str> = stage
            .iter()
            .filter_map(|w| match w {
                Word::Text(t) => Some(t.as_str()),
                Word::Pipe => None,
            })
            .collect();
        match texts.first().copied() {
            Some("awk" | "gawk" | "mawk") => {
                let operands: Vec<&str> = texts[1..]
                    .iter()
                    .copied()
                    .filter(|t| !t.starts_with('-'))
                    .collect();
                awk_pattern = operands.first().and_then(|p| awk_regex(p));
                file = operands.get(1).map(|f| (*f).to_string());
            }
            Some("grep" | "egrep") => {
                let mut args = texts[1..].iter();
                while let Some(a) = args.next() {
                    if *a == "-e" {
                        grep_pattern = args.next().map(|p| (*p).to_string());
                        break;
                    }
                    if a.starts_with('-') && a.len() > 1 {
                        continue;
                    }
                    grep_pattern = Some((*a).to_string());
                    if file.is_none() {
                        file = args.next().map(|f| (*f).to_string());
                    }
                    break;
                }
            }
            _ => {}
        }
    }
    Some(GateCommand {
        awk_pattern,
        file,
        grep_pattern: grep_pattern?,
    })
}

/// The regex of an awk program `/RE/{exit} 1` (`\/` is a slash).
fn awk_regex(prog: &str) -> Option<String> {
    let rest = prog.trim_start().strip_prefix('/')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '/' => return Some(out),
            '\\' => match chars.next()? {
                '/' => out.push('/'),
                x => {
                    out.push('\\');
                    out.push(x);
                }
            },
            c => out.push(c),
        }
    }
    None
}

/// Splits an ERE at its top-level `|` after removing one pair of parentheses
/// around the whole: `(a|b\|c|(x|y))` gives `a`, `b\|c`, `(x|y)`.
pub fn alternatives(ere: &str) -> Vec<String> {
    let inner = strip_outer_group(ere).unwrap_or(ere);
    split_top(inner)
}

/// The top-level alternatives of one listed token (a bullet's `a|b` is two
/// alternatives of the command, a bullet's `(a|b)` is one).
pub fn alternatives_of_token(token: &str) -> Vec<String> {
    split_top(token)
}

fn strip_outer_group(ere: &str) -> Option<&str> {
    let inner = ere.strip_prefix('(')?.strip_suffix(')')?;
    // Only when the first `(` closes at the very end.
    let parts = scan(ere);
    (parts.close_of_first == Some(ere.len() - 1)).then_some(inner)
}

struct Scan {
    close_of_first: Option<usize>,
    bars: Vec<usize>,
}

/// Walks an ERE once, skipping escapes and bracket expressions.
fn scan(ere: &str) -> Scan {
    let b = ere.as_bytes();
    let mut depth = 0usize;
    let mut s = Scan {
        close_of_first: None,
        bars: Vec::new(),
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => i = bracket_end(b, i),
            b'(' => depth += 1,
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 && s.close_of_first.is_none() {
                    s.close_of_first = Some(i);
                }
            }
            b'|' if depth == 0 => s.bars.push(i),
            _ => {}
        }
        i += 1;
    }
    s
}

/// The index of the `]` closing the bracket expression opened at `open`.
fn bracket_end(b: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    if b.get(i) == Some(&b'^') {
        i += 1;
    }
    if b.get(i) == Some(&b']') {
        i += 1;
    }
    while i < b.len() {
        if b[i] == b'['
            && let Some(&k @ (b':' | b'.' | b'=')) = b.get(i + 1)
        {
            let mut j = i + 2;
            while j + 1 < b.len() && !(b[j] == k && b[j + 1] == b']') {
                j += 1;
            }
            i = j + 2;
            continue;
        }
        if b[i] == b']' {
            return i;
        }
        i += 1;
    }
    b.len()
}

fn split_top(ere: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    for bar in scan(ere).bars {
        out.push(ere[start..bar].to_string());
        start = bar + 1;
    }
    out.push(ere[start..].to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_reference_command() {
        let cmd = "awk '/^## Go-specific implementation patterns/{exit} 1' event-driven-architecture.md \\\n  | grep -nE '(SET LOCAL|\\bsqlx\\b|(^|[^[:alnum:]_])sql\\.Tx\\b)'";
        let g = gate_command(cmd).unwrap();
        assert_eq!(
            g.awk_pattern.as_deref(),
            Some("^## Go-specific implementation patterns")
        );
        assert_eq!(g.file.as_deref(), Some("event-driven-architecture.md"));
        assert_eq!(
            alternatives(&g.grep_pattern),
            vec!["SET LOCAL", r"\bsqlx\b", r"(^|[^[:alnum:]_])sql\.Tx\b"]
        );
    }

    #[test]
    fn quoting_and_groups() {
        assert_eq!(
            gate_command(r#"grep -nE "a\"b"'|c' f.md"#)
                .unwrap()
                .grep_pattern,
            "a\"b|c"
        );
        assert_eq!(alternatives("(a)|(b)"), vec!["(a)", "(b)"]);
        assert_eq!(alternatives("[|]|x"), vec!["[|]", "x"]);
        assert!(gate_command("grep -nE 'open").is_none());
    }
}
