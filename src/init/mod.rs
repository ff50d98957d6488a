//! `platcheck init`: a config and one example contract per kind, written
//! only where nothing exists yet (it never overwrites).
use std::path::Path;

const FILES: &[(&str, &str)] = &[
    ("platcheck.yaml", include_str!("platcheck.yaml")),
    (
        "contracts/clusters/example-db.yaml",
        include_str!("example-db.yaml"),
    ),
    (
        "contracts/events/example-created.yaml",
        include_str!("example-created.yaml"),
    ),
    (
        "schemas/example-created.schema.json",
        include_str!("example-created.schema.json"),
    ),
];

pub fn scaffold(dir: &Path) -> Result<String, String> {
    let existing: Vec<&str> = FILES
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| dir.join(p).exists())
        .collect();
    if !existing.is_empty() {
        return Err(format!(
            "refusing to overwrite existing files in {}: {}",
            dir.display(),
            existing.join(", ")
        ));
    }
    let mut out = String::new();
    for (path, text) in FILES {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        // The modelines name the schemas of this very version, where its
        // release publishes them (catalog::DOCS_BASE).
        let text = text.replace(
            "@SCHEMAS@",
            &format!("{}/schemas", crate::catalog::DOCS_BASE),
        );
        std::fs::write(&target, text)
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        out.push_str(&format!("created {path}\n"));
    }
    out.push_str("next: edit the contracts, then run `platcheck check`\n");
    Ok(out)
}
