//! The layer invariant of ARCHITECTURE.md: every `crate::` (and `super::`
//! path that leaves its module) in `src/` points down the layer table
//! (`architecture/layers.rs`), never up and never sideways. A new top-level
//! module must be placed in the table.
#[path = "architecture/imports.rs"]
mod imports;
#[path = "architecture/layers.rs"]
mod layers;

use imports::check_file;
use layers::{LAYERS, place};
use std::collections::BTreeSet;
use std::path::Path;

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
                "src/{}: module `{}` is not in the layer table of tests/architecture/layers.rs (and ARCHITECTURE.md)",
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
