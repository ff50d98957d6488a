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
    // `symlink_metadata`: a dangling link exists too, and is never written through.
    let existing: Vec<&str> = FILES
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| std::fs::symlink_metadata(dir.join(p)).is_ok())
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
            refuse_linked_dirs(dir, parent)?;
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        // The modelines name the schemas of this very version, where its
        // release publishes them (catalog::DOCS_BASE).
        let text = text.replace(
            "@SCHEMAS@",
            &format!("{}/schemas", crate::catalog::DOCS_BASE),
        );
        crate::read::write::write_file(&target, &text, crate::read::write::Replace::Nothing)?;
        out.push_str(&format!("created {path}\n"));
    }
    out.push_str("next: edit the contracts, then run `platcheck check`\n");
    Ok(out)
}

/// A directory `init` would write into that is a symlink (`contracts` → a
/// directory elsewhere) is refused: init writes inside the target only.
fn refuse_linked_dirs(base: &Path, parent: &Path) -> Result<(), String> {
    let Ok(rel) = parent.strip_prefix(base) else {
        return Ok(());
    };
    let mut at = base.to_path_buf();
    for c in rel.components() {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "refusing to write into {}: it is a symlink (init writes only inside {})",
                at.display(),
                base.display()
            ));
        }
    }
    Ok(())
}
