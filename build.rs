//! Generates the typed `RuleId` from the rule data files under `rules/`, so a
//! rule's id is written exactly once: in its own data file.
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time: a build script binary compiled for one checkout must
    // not look at another checkout's rules.
    let manifest_dir = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let docs_url = docs_url(&manifest_dir.join("Cargo.toml"));
    println!("cargo:rustc-env=PLATCHECK_DOCS_URL={docs_url}");
    let root = manifest_dir.join("rules");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut rules = Vec::new();
    let mut families: Vec<_> = std::fs::read_dir(&root)
        .expect("rules/ directory")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .collect();
    families.sort_by_key(|e| e.file_name());
    for fam in families {
        println!("cargo:rerun-if-changed={}", fam.path().display());
        for entry in std::fs::read_dir(fam.path()).expect("rule family dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("rule file");
            let id = front_matter_id(&text)
                .unwrap_or_else(|| panic!("{}: front matter has no `id:`", path.display()));
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            assert_eq!(id, stem, "{}: id must equal the file stem", path.display());
            let rel = path.strip_prefix(&manifest_dir).unwrap();
            rules.push((id, rel.to_string_lossy().replace('\\', "/")));
        }
    }
    rules.sort();
    for w in rules.windows(2) {
        assert_ne!(w[0].0, w[1].0, "duplicate rule id {}", w[0].0);
    }
    let mut out = String::new();
    out.push_str("/// A rule id, generated from the data files under `rules/`.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\n");
    out.push_str("pub enum RuleId {\n");
    for (id, _) in &rules {
        writeln!(out, "    {id},").unwrap();
    }
    out.push_str("}\n\nimpl RuleId {\n    /// Every rule, in id order.\n    pub const ALL: &'static [RuleId] = &[\n");
    for (id, _) in &rules {
        writeln!(out, "        RuleId::{id},").unwrap();
    }
    out.push_str("    ];\n\n    /// The id as written in the data file.\n    pub const fn as_str(self) -> &'static str {\n        match self {\n");
    for (id, _) in &rules {
        writeln!(out, "            RuleId::{id} => \"{id}\",").unwrap();
    }
    out.push_str("        }\n    }\n\n    /// The rule's data file, relative to the repository root.\n    pub const fn doc_path(self) -> &'static str {\n        match self {\n");
    for (id, rel) in &rules {
        writeln!(out, "            RuleId::{id} => \"{rel}\",").unwrap();
    }
    out.push_str("        }\n    }\n\n    /// The rule's data file, embedded.\n    pub const fn doc_source(self) -> &'static str {\n        match self {\n");
    for (id, rel) in &rules {
        writeln!(
            out,
            "            RuleId::{id} => include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{rel}\")),"
        )
        .unwrap();
    }
    out.push_str("        }\n    }\n\n    /// The data file's front matter as JSON, prepared by build.rs so a run\n    /// need not parse YAML; `None` when it uses YAML beyond the plain subset\n    /// `front_matter_json` reads (the catalogue then parses the YAML).\n    pub const fn front_matter_json(self) -> Option<&'static str> {\n        match self {\n");
    for (id, rel) in &rules {
        let text = std::fs::read_to_string(manifest_dir.join(rel)).expect("rule file");
        match front_matter_json(&text) {
            Some(json) => writeln!(out, "            RuleId::{id} => Some({json:?}),").unwrap(),
            None => writeln!(out, "            RuleId::{id} => None,").unwrap(),
        }
    }
    out.push_str("        }\n    }\n}\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("rule_ids.rs");
    std::fs::write(dest, out).unwrap();
}

/// The front matter of a rule data file as a JSON object, for the flat YAML
/// the data files use: `key: scalar` lines and mappings of them one level
/// deep (`messages:`), scalars plain, single- or double-quoted. Generic over
/// keys and families: the catalogue's own serde struct decides what is
/// allowed. Anything else (comments, block scalars, flow collections, other
/// escapes) gives `None`, and the catalogue parses that file's YAML at run
/// time instead; a unit test checks both readings agree for every rule.
fn front_matter_json(text: &str) -> Option<String> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let mut top: Vec<(String, String)> = Vec::new();
    let mut open: Option<(String, Vec<(String, String)>)> = None;
    for line in rest[..end].lines() {
        if line.trim().is_empty() {
            continue;
        }
        let (nested, line) = match line.strip_prefix("  ") {
            Some(l) => (true, l),
            None => (false, line),
        };
        let (key, value) = line.split_once(':')?;
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        if !value.is_empty() && !value.starts_with(' ') {
            return None;
        }
        let value = value.trim();
        match (nested, &mut open) {
            (true, Some((_, entries))) => {
                let key = json_string(key);
                if entries.iter().any(|(k, _)| *k == key) {
                    return None;
                }
                entries.push((key, scalar(value)?));
            }
            (true, None) => return None,
            (false, _) => {
                if let Some((k, entries)) = open.take() {
                    top.push((k, json_object(&entries)?));
                }
                if value.is_empty() {
                    open = Some((json_string(key), Vec::new()));
                } else {
                    top.push((json_string(key), scalar(value)?));
                }
            }
        }
    }
    if let Some((k, entries)) = open.take() {
        top.push((k, json_object(&entries)?));
    }
    let mut keys: Vec<_> = top.iter().map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    if keys.len() != top.len() {
        return None;
    }
    json_object(&top)
}

/// One YAML scalar as a JSON string, or `None` outside the subset.
fn scalar(v: &str) -> Option<String> {
    if let Some(inner) = v.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        let mut s = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next()? {
                    c @ ('"' | '\\' | '/') => s.push(c),
                    _ => return None,
                },
                '"' => return None,
                c => s.push(c),
            }
        }
        return Some(json_string(&s));
    }
    if let Some(inner) = v.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'')?;
        if inner.replace("''", "").contains('\'') {
            return None;
        }
        return Some(json_string(&inner.replace("''", "'")));
    }
    // A plain scalar: only ones YAML reads as the same string (no
    // indicators, no comment, no `: `, nothing typed as bool/number/null).
    let first = v.chars().next()?;
    if "-?:,[]{}#&*!|>'\"%@`".contains(first)
        || v.contains(": ")
        || v.contains(" #")
        || v.ends_with(':')
        || v.parse::<f64>().is_ok()
        || matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | ".inf" | ".nan"
        )
    {
        return None;
    }
    Some(json_string(v))
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `None` for an empty mapping: `key:` with nothing under it is YAML null.
fn json_object(entries: &[(String, String)]) -> Option<String> {
    let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    (!body.is_empty()).then(|| format!("{{{}}}", body.join(",")))
}

fn front_matter_id(text: &str) -> Option<String> {
    let body = text.strip_prefix("---")?;
    let end = body.find("\n---")?;
    body[..end]
        .lines()
        .find_map(|l| l.strip_prefix("id:"))
        .map(|v| v.trim().trim_matches('"').to_string())
}

/// The base under which every release's files are published, as
/// `<base>/v<version>/<path in the repository>`: `PLATCHECK_DOCS_URL` when the
/// builder sets it (a fork, a mirror), else `docs_url` in Cargo.toml's
/// `[package.metadata.platcheck]`. Read by hand: a TOML parser as a build
/// dependency would cost every build for one key.
fn docs_url(manifest: &Path) -> String {
    println!("cargo:rerun-if-env-changed=PLATCHECK_DOCS_URL");
    println!("cargo:rerun-if-changed={}", manifest.display());
    let url = match std::env::var("PLATCHECK_DOCS_URL") {
        Ok(url) if !url.trim().is_empty() => url.trim().to_string(),
        _ => {
            let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
            metadata_docs_url(&text).unwrap_or_else(|| {
                panic!(
                    "{}: [package.metadata.platcheck] has no `docs_url = \"https://…\"`",
                    manifest.display()
                )
            })
        }
    };
    assert!(
        url.starts_with("https://") || url.starts_with("http://"),
        "docs_url must be an http(s) URL, got {url:?}"
    );
    url.trim_end_matches('/').to_string()
}

fn metadata_docs_url(manifest: &str) -> Option<String> {
    let mut table = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line.trim_matches(|c| c == '[' || c == ']').trim();
        } else if table == "package.metadata.platcheck" {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            if key.trim() == "docs_url" {
                return Some(value.trim().trim_matches('"').to_string());
            }
        }
    }
    None
}
