//! The import scanner: finds every `crate::` and `super::` path in a
//! file's code (comments and literals blanked), resolves the top-level
//! module it lands in and asks the layer table whether it may.
use super::layers::{ROOT_ITEMS, may_import};

/// Blanks comments, string and char literals (keeping newlines), so only
/// code is searched.
fn code_only(text: &str) -> Vec<char> {
    let c: Vec<char> = text.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in &mut out[from..to.min(c.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = c[i..]
                .iter()
                .position(|&x| x == '\n')
                .map_or(c.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(c[i - 1]))
        {
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < c.len()
                && !(c[j] == '"'
                    && c[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&x| x == '#')
                        .count()
                        == hashes)
            {
                j += 1;
            }
            let end = j + 1 + hashes;
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\''); a lifetime ('a) is left alone.
            let end = if next == Some('\\') {
                c[i + 2..]
                    .iter()
                    .position(|&x| x == '\'')
                    .map(|p| i + 3 + p)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(e) => {
                    blank(&mut out, i, e);
                    i = e;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Reads a path or use tree at `i` (`crate::a::{b, c::d}`) and returns
/// every full path it names.
fn use_tree(c: &[char], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let skip_ws = |i: &mut usize| {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut path = prefix;
    loop {
        skip_ws(&mut i);
        if c.get(i) == Some(&'{') {
            i += 1;
            loop {
                skip_ws(&mut i);
                match c.get(i) {
                    Some('}') => return i + 1,
                    Some(',') => i += 1,
                    None => return i,
                    _ => i = use_tree(c, i, path.clone(), out),
                }
            }
        }
        let start = i;
        while i < c.len() && (is_ident(c[i]) || c[i] == '*') {
            i += 1;
        }
        if i == start {
            out.push(path);
            return i;
        }
        path.push(c[start..i].iter().collect());
        let mut j = i;
        skip_ws(&mut j);
        if c.get(j) == Some(&':') && c.get(j + 1) == Some(&':') {
            i = j + 2;
        } else {
            // `as alias`, `;`, `(`, `,`: the path ends here.
            while i < c.len() && c[i].is_whitespace() {
                i += 1;
            }
            if c[i..].starts_with(&['a', 's']) && c.get(i + 2).is_some_and(|x| x.is_whitespace()) {
                i += 2;
                skip_ws(&mut i);
                while i < c.len() && is_ident(c[i]) {
                    i += 1;
                }
            }
            out.push(path);
            return i;
        }
    }
}

#[derive(Debug, PartialEq)]
pub(crate) struct Violation {
    pub(crate) line: usize,
    pub(crate) import: String,
    pub(crate) why: String,
}

/// Checks one file: `module` is its module path (`["rules", "mg", "common"]`).
pub(crate) fn check_file(module: &[&str], text: &str) -> Vec<Violation> {
    let c = code_only(text);
    let mut out = Vec::new();
    // Inline modules (`mod tests { … }`) deepen the path `super::` climbs from.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        let at_word = i == 0 || !(is_ident(c[i - 1]) || c[i - 1] == '$' || c[i - 1] == ':');
        if at_word && c[i..].starts_with(&['m', 'o', 'd', ' ']) {
            let mut j = i + 4;
            let start = j;
            while j < c.len() && is_ident(c[j]) {
                j += 1;
            }
            let name: String = c[start..j].iter().collect();
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if c.get(j) == Some(&'{') {
                inline.push((name, depth + 1));
                depth += 1;
                i = j + 1;
                continue;
            }
        }
        let starts = |w: &str| {
            let w: Vec<char> = w.chars().collect();
            c[i..].starts_with(&w)
        };
        if at_word && (starts("crate::") || starts("super::")) {
            let mut paths = Vec::new();
            let end = use_tree(&c, i, Vec::new(), &mut paths);
            let line = c[..i].iter().filter(|&&x| x == '\n').count() + 1;
            let here: Vec<&str> = module
                .iter()
                .copied()
                .chain(inline.iter().map(|(n, _)| n.as_str()))
                .collect();
            for p in paths {
                let Some(target) = resolve(&here, &p) else {
                    continue;
                };
                let from = module.first().copied().unwrap_or("");
                if let Err(why) = may_import(from, &target) {
                    out.push(Violation {
                        line,
                        import: p.join("::"),
                        why,
                    });
                }
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

/// The top-level module a path lands in, `None` when it stays inside.
fn resolve(here: &[&str], path: &[String]) -> Option<String> {
    let first = path.first()?;
    let (base, rest): (Vec<&str>, &[String]) = if first == "crate" {
        (Vec::new(), &path[1..])
    } else {
        let ups = path.iter().take_while(|s| *s == "super").count();
        let keep = here.len().checked_sub(ups)?;
        (here[..keep].to_vec(), &path[ups..])
    };
    let top = match base.first() {
        Some(m) => m.to_string(),
        None => {
            let item = rest.first()?;
            if item == "self" || item == "*" {
                return None;
            }
            ROOT_ITEMS
                .iter()
                .find(|(name, _)| name == item)
                .map_or(item.to_string(), |(_, m)| m.to_string())
        }
    };
    (here.first() != Some(&top.as_str())).then_some(top)
}
