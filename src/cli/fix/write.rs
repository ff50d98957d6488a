//! Writing a fixed file safely: never through a symbolic link, never over a
//! file that changed since the run read it, never half-written (a temporary
//! file in the same directory, renamed over the target), keeping the
//! file's permissions and its UTF-8 byte-order mark.
use crate::fix::apply::Change;
use std::io::Write;
use std::path::Path;

const BOM: &str = "\u{feff}";

pub fn apply(path: &Path, change: &Change) -> Result<(), String> {
    let shown = path.display();
    let meta = std::fs::symlink_metadata(path);
    if meta.as_ref().is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{shown}: is a symbolic link; platcheck fix does not write through links"
        ));
    }
    let (bom, perms) = match (&change.before, &meta) {
        (None, Ok(_)) => {
            return Err(format!(
                "{shown}: a fix would create this file, but it exists; move it away or fix by hand"
            ));
        }
        (None, Err(_)) => ("", None),
        (Some(before), Ok(m)) => {
            let disk = std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
            let disk =
                String::from_utf8(disk).map_err(|_| format!("{shown}: not UTF-8 any more"))?;
            let (bom, rest) = match disk.strip_prefix(BOM) {
                Some(rest) => (BOM, rest),
                None => ("", disk.as_str()),
            };
            if rest != before {
                return Err(format!(
                    "{shown}: changed since platcheck read it; run `platcheck fix` again"
                ));
            }
            (bom, Some(m.permissions()))
        }
        (Some(_), Err(e)) => return Err(format!("{shown}: cannot read: {e}")),
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A new migration may be a new directory (diesel's `<version>_<name>/`).
    if change.before.is_none() && !dir.exists() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.platcheck-fix-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bom.as_bytes())?;
        f.write_all(change.after.as_bytes())?;
        f.sync_all()?;
        if let Some(p) = perms {
            std::fs::set_permissions(&tmp, p)?;
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{shown}: cannot write: {e}"));
    }
    Ok(())
}
