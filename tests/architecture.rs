//! The layer invariant of ARCHITECTURE.md: every `crate::` (and `super::`
//! path that leaves its module) in `src/` points down the table below, never
//! up and never sideways. A new top-level module must be placed in the table.
use std::collections::BTreeSet;
use std::path::Path;

/// A layer: its name, the layers it may import, and its modules with their
/// rank inside it.
struct Layer {
    name: &'static str,
    below: &'static [&'static str],
    modules: &'static [(&'static str, u8)],
}

/// Bottom to top. Within a layer a module may import only modules of a
/// lower rank; across layers only the layers listed as below it.
const LAYERS: &[Layer] = &[
    Layer {
        name: "model",
        below: &[],
        modules: &[
            ("catalog", 0),
            ("source", 0),
            ("finding", 1),
            ("emit", 2),
            ("contracts", 3),
            ("outcome", 4),
            ("fingerprint", 5),
        ],
    },
    Layer {
        name: "inputs",
        below: &["model"],
        modules: &[
            ("read", 0),
            ("workspace", 0),
            ("settings", 1),
            ("discover", 2),
        ],
    },
    Layer {
        name: "analyses",
        below: &["model", "inputs"],
        modules: &[("sql", 0), ("mirror", 0), ("compat", 0), ("probe", 0)],
    },
    Layer {
        name: "rules",
        below: &["model", "inputs", "analyses"],
        modules: &[("registry", 0), ("rules", 1)],
    },
    Layer {
        name: "engine",
        below: &["model", "inputs", "analyses", "rules"],
        modules: &[
            ("suppress", 0),
            ("baseline", 0),
            ("changed", 0),
            ("fix", 0),
            ("engine", 1),
        ],
    },
    Layer {
        name: "printers",
        below: &["model"],
        modules: &[("report", 0), ("output", 1)],
    },
    Layer {
        name: "cli",
        below: &["model", "inputs", "analyses", "rules", "engine", "printers"],
        modules: &[("init", 0), ("lsp", 0), ("cli", 1)],
    },
];

/// Items `lib.rs` re-exports at the crate root, and the module they come from.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("RuleId", "catalog"),
    ("Finding", "finding"),
    ("Severity", "finding"),
    ("Outcome", "outcome"),
    ("run", "engine"),
];

fn place(module: &str) -> Option<(&'static str, u8)> {
    LAYERS.iter().find_map(|l| {
        l.modules
            .iter()
            .find(|(m, _)| *m == module)
            .map(|&(_, rank)| (l.name, rank))
    })
}

fn may_import(from: &str, to: &str) -> Result<(), String> {
    if from == to {
        return Ok(());
    }
    let (Some((fl, fr)), Some((tl, tr))) = (place(from), place(to)) else {
        return Err(format!(
            "`{from}` -> `{to}`: a module missing from the layer table"
        ));
    };
    let below = LAYERS
        .iter()
        .find(|l| l.name == fl)
        .map_or(&[][..], |l| l.below);
    let ok = if fl == tl {
        tr < fr
    } else {
        below.contains(&tl)
    };
    if ok {
        Ok(())
    } else if fl == tl {
        Err(format!(
            "{from} (rank {fr} in {fl}) may not import {to} (rank {tr}): sideways or upward"
        ))
    } else {
        Err(format!(
            "{from} ({fl}) may not import {to} ({tl}): {tl} is not below {fl}"
        ))
    }
}

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
struct Violation {
    line: usize,
    import: String,
    why: String,
}

/// Checks one file: `module` is its module path (`["rules", "mg", "common"]`).
fn check_file(module: &[&str], text: &str) -> Vec<Violation> {
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

fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/") {
        let p = entry.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        // The crate root declares the modules and re-exports the public
        // face; the binary goes through the library's public paths.
        if rel == Path::new("lib.rs") || rel == Path::new("main.rs") {
            continue;
        }
        let module = module_of(rel);
        let names: Vec<&str> = module.iter().map(String::as_str).collect();
        seen.insert(names[0].to_string());
        if place(names[0]).is_none() {
            problems.push(format!(
                "src/{}: module `{}` is not in the layer table of tests/architecture.rs (and ARCHITECTURE.md)",
                rel.display(),
                names[0]
            ));
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for v in check_file(&names, &text) {
            problems.push(format!(
                "src/{}:{}: `{}`: {}",
                rel.display(),
                v.line,
                v.import,
                v.why
            ));
        }
    }
    assert!(seen.len() > 20, "the walk found too few modules: {seen:?}");
    assert!(
        problems.is_empty(),
        "imports that do not point down the layers:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_module_of_the_table_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for layer in LAYERS {
        for (m, _) in layer.modules {
            assert!(
                src.join(format!("{m}.rs")).is_file() || src.join(m).join("mod.rs").is_file(),
                "the layer table names `{m}`, which is not a module of src/"
            );
        }
    }
}

#[test]
fn the_checker_catches_planted_violations() {
    let text = r#"//! A printer that reaches into the engine.
use crate::finding::Finding;
use crate::{outcome::Outcome, engine::{self, RunError}};
// use crate::cli::Nothing; (a comment)
const S: &str = "crate::cli::InAString";
fn f(c: char) -> bool { c == '"' && lifetime::<'static>() }
fn g() {
    let _ = crate::sql::analysis::analyze;
    let _ = crate::RuleId::PC000;
}
mod tests {
    use super::*;
    use super::super::super::rules::Entry;
}
"#;
    let v = check_file(&["output", "json"], text);
    let found: Vec<(usize, &str)> = v.iter().map(|v| (v.line, v.import.as_str())).collect();
    assert_eq!(
        found,
        vec![
            (3, "crate::engine::self"),
            (3, "crate::engine::RunError"),
            (8, "crate::sql::analysis::analyze"),
            (13, "super::super::super::rules::Entry"),
        ],
        "{v:#?}"
    );
    assert!(
        v[0].why.contains("engine is not below printers"),
        "{}",
        v[0].why
    );

    // Within a layer only a lower rank may be imported: no sideways edges.
    let v = check_file(&["sql", "context"], "use crate::mirror::doc::Doc;\n");
    assert_eq!(v.len(), 1);
    assert!(v[0].why.contains("sideways"), "{}", v[0].why);
    let v = check_file(&["catalog"], "use crate::finding::Severity;\n");
    assert_eq!(v.len(), 1, "finding sits above catalog in the model");

    // Downward and internal imports pass; super:: inside a module stays inside.
    let ok = "use super::checklist;\nuse crate::outcome::Outcome;\nuse crate::contracts::{Contract, yaml::Node};\n";
    assert!(check_file(&["report", "model"], ok).is_empty());
    assert!(check_file(&["engine"], "use crate::rules;\nuse crate::cli::X;\n").len() == 1);

    // A module missing from the table is reported, not silently allowed.
    let v = check_file(&["cli"], "use crate::newthing::X;\n");
    assert!(
        v[0].why.contains("missing from the layer table"),
        "{}",
        v[0].why
    );
}
