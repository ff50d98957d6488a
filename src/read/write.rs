//! Writing the files platcheck makes (`--output`, `baseline write`, `init`,
//! `verify --save`): into a temporary file in the target directory, then
//! renamed over the target, so a reader never sees half a file. A write
//! never goes through a symlink (a planted `platcheck.sarif` link must not
//! overwrite its target) and never replaces a file that is not ours: the
//! config is never overwritten, and a baseline replaces only a baseline.
use std::io::Write;
use std::path::Path;

/// What a write may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Report output: any regular file except the config.
    Output,
    /// A baseline: only an earlier baseline (or an empty file).
    Baseline,
    /// Nothing: the file must not exist (`init`).
    Nothing,
}

pub fn write_file(path: &Path, text: &str, replace: Replace) -> Result<(), String> {
    let shown = path.display();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(format!(
                "refusing to write {shown}: it is a symlink (platcheck does not write through links; remove it first)"
            ));
        }
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "refusing to write {shown}: {} is not a regular file",
                super::file_kind(&meta.file_type())
            ));
        }
        Ok(_) => refuse_foreign(path, replace)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot write {shown}: {}", super::io_reason(&e))),
    }
    if path.file_name().is_some_and(|n| n == super::CONFIG_NAME) && replace != Replace::Nothing {
        return Err(format!(
            "refusing to write {shown}: that is platcheck's config file, not an output"
        ));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".platcheck-write-")
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write {shown}: {}", super::io_reason(&e)))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {shown}: {}", super::io_reason(&e)))?;
    #[cfg(unix)]
    {
        // The temporary file is private (0600); the result is an ordinary file.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777);
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode));
    }
    let done = if replace == Replace::Nothing {
        tmp.persist_noclobber(path).map(drop)
    } else {
        tmp.persist(path).map(drop)
    };
    done.map_err(|e| format!("cannot write {shown}: {}", super::io_reason(&e.error)))
}

/// Appends `text` to a file another program owns (`$GITHUB_STEP_SUMMARY`,
/// shared by every step of a job) in one `write` on an `O_APPEND` handle,
/// so that a concurrent writer can never interleave with it: a short write
/// is reported, not completed by a second write that could land after
/// someone else's. Never through a link, never blocking on a FIFO.
pub fn append_once(path: &Path, text: &str) -> Result<(), String> {
    let shown = path.display();
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let mut file = opts.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return format!(
                "refusing to write {shown}: it is a symlink (platcheck does not write through links)"
            );
        }
        format!("cannot write {shown}: {}", super::io_reason(&e))
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot write {shown}: {}", super::io_reason(&e)))?;
    if !meta.is_file() {
        return Err(format!(
            "refusing to write {shown}: {} is not a regular file",
            super::file_kind(&meta.file_type())
        ));
    }
    let bytes = text.as_bytes();
    match file.write(bytes) {
        Ok(n) if n == bytes.len() => Ok(()),
        Ok(n) => Err(format!(
            "cannot write {shown}: only {n} of {} bytes were written (the disk may be full)",
            bytes.len()
        )),
        Err(e) => Err(format!("cannot write {shown}: {}", super::io_reason(&e))),
    }
}

fn refuse_foreign(path: &Path, replace: Replace) -> Result<(), String> {
    let shown = path.display();
    match replace {
        Replace::Output => Ok(()),
        Replace::Nothing => Err(format!("refusing to overwrite {shown}: it exists")),
        Replace::Baseline => {
            let text = super::read_input(path, super::DEFAULT_MAX_FILE_SIZE)
                .map_err(|e| format!("refusing to overwrite {shown}: {e}"))?;
            let is_baseline = text.iter().all(u8::is_ascii_whitespace)
                || serde_json::from_slice::<serde_json::Value>(&text).is_ok_and(|v| {
                    v.get("version").is_some() && v.get("entries").is_some_and(|e| e.is_array())
                });
            if is_baseline {
                Ok(())
            } else {
                Err(format!(
                    "refusing to overwrite {shown}: it is not a platcheck baseline (a baseline replaces only a baseline)"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Replace, write_file};

    #[cfg(unix)]
    #[test]
    fn writes_refuse_links_even_dangling_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target.txt");
        std::fs::write(&target, "keep").unwrap();
        let link = tmp.path().join("out.sarif");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(
            write_file(&link, "x", Replace::Output)
                .unwrap_err()
                .contains("symlink")
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let dangling = tmp.path().join("new.yaml");
        std::os::unix::fs::symlink(tmp.path().join("nowhere"), &dangling).unwrap();
        assert!(write_file(&dangling, "x", Replace::Nothing).is_err());
        assert!(!tmp.path().join("nowhere").exists());
    }

    #[test]
    fn a_baseline_replaces_only_a_baseline() {
        let tmp = tempfile::tempdir().unwrap();
        let b = tmp.path().join("b.json");
        std::fs::write(&b, "{\"version\": 1, \"entries\": []}").unwrap();
        write_file(&b, "{\"version\": 1, \"entries\": [1]}", Replace::Baseline).unwrap();
        assert!(std::fs::read_to_string(&b).unwrap().contains("[1]"));
        let other = tmp.path().join("notes.json");
        std::fs::write(&other, "{\"a\": 1}").unwrap();
        assert!(
            write_file(&other, "{}", Replace::Baseline)
                .unwrap_err()
                .contains("not a platcheck baseline")
        );
        let cfg = tmp.path().join("platcheck.yaml");
        assert!(
            write_file(&cfg, "{}", Replace::Output)
                .unwrap_err()
                .contains("config")
        );
        assert!(!cfg.exists());
        let leftovers = std::fs::read_dir(tmp.path()).unwrap().count();
        assert_eq!(leftovers, 2, "no temporary file is left behind");
    }
}
