//! Reading one input file safely: regular files only, never blocking on a
//! FIFO or device, within a size limit, with reasons worded for people.
//! The walker (`discover`), the config (`settings`) and the analyses that
//! read files of their own (payload schemas, sibling documents) share it.
use std::path::Path;

/// The config's file name: never checked as an input, never written over.
pub const CONFIG_NAME: &str = "platcheck.yaml";
/// `max_file_size` unless the config says otherwise.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

mod decode;
mod scope;
pub mod write;
pub use decode::decode;
pub use scope::{Lookup, Scope, lookup_inside};

/// Reads an input file as text: inside `scope`, within `max` bytes, decoded
/// by [`decode`]. Every reader of a user's file goes through here.
pub fn read_text(path: &Path, max: u64, scope: &Scope) -> Result<String, String> {
    scope.check(path)?;
    decode(read_input(path, max)?)
}

/// The reason an I/O error gives, worded for a finding.
pub fn io_reason(e: &std::io::Error) -> String {
    // The walker wraps the OS error in one that repeats the path, which the
    // finding names already: word the OS error alone.
    let os = os_error(e);
    let e = os.as_ref().unwrap_or(e);
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return "symlink loop (too many levels of symbolic links)".into();
    }
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// The OS error at the bottom of an error chain, if any.
fn os_error(e: &std::io::Error) -> Option<std::io::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(code) = err
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
        {
            return Some(std::io::Error::from_raw_os_error(code));
        }
        cur = err.source();
    }
    None
}

/// Why a path that is not a regular file is skipped, naming what it is.
pub fn not_regular(ft: &std::fs::FileType) -> String {
    format!("{} is not a regular file; skipped", file_kind(ft))
}

pub fn file_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
    }
    if ft.is_dir() { "a directory" } else { "this" }
}

/// Reads an input file, refusing anything that is not a regular file or is
/// larger than `max` bytes. The file is checked again after opening (it may
/// have been swapped for a FIFO since it was found) and opened non-blocking,
/// so no path can make the run wait forever; the read stops at `max + 1`
/// bytes, so a file that grows while being read cannot exhaust memory.
pub fn read_input(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    if meta.len() > max {
        return Err(too_large(meta.len(), max));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = opts.open(path).map_err(|e| io_reason(&e))?;
    let meta = file.metadata().map_err(|e| io_reason(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > max {
        return Err(too_large(read, max));
    }
    Ok(bytes)
}

fn too_large(size: u64, max: u64) -> String {
    use crate::contracts::units::thousands;
    format!(
        "skipped: {} bytes is larger than the {} byte limit (max_file_size in platcheck.yaml)",
        thousands(i128::from(size)),
        thousands(i128::from(max))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_input_reports_a_file_gone_since_discovery() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("gone.yaml");
        std::fs::write(&p, "a: 1\n").unwrap();
        std::fs::remove_file(&p).unwrap();
        assert_eq!(
            read_input(&p, 100).unwrap_err(),
            "no such file or directory"
        );
    }

    #[test]
    fn read_input_refuses_a_fifo_swapped_in_since_discovery() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("x.yaml");
        let status = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(
            read_input(&p, 100).unwrap_err(),
            "a FIFO (named pipe) is not a regular file; skipped"
        );
    }

    #[test]
    fn read_input_enforces_the_size_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("big.sql");
        std::fs::write(&p, "x".repeat(2048)).unwrap();
        assert!(read_input(&p, 1024).unwrap_err().contains("2,048 bytes"));
        assert_eq!(read_input(&p, 2048).unwrap().len(), 2048);
    }

    #[test]
    fn io_reasons_are_worded_for_people() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(io_reason(&denied), "permission denied");
    }
}
