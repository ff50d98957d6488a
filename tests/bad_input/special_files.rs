//! Files that are not regular files, or cannot be read: FIFOs, sockets,
//! devices and symlink loops are reported by kind and never opened (the run
//! must not block), an ignore file that is a FIFO skips its directory, and
//! read and permission errors are located.
use super::{at, contract, one, write};
use crate::common;
use platcheck::{Finding, RuleId};
use std::path::Path;

/// Runs a check on another thread and fails, instead of hanging the suite,
/// when it does not finish: the cases below used to block forever.
fn check_within(paths: &[&Path], secs: u64) -> platcheck::engine::Outcome {
    check_within_following(paths, secs, false)
}

/// `check_within`, with `--follow-external-links` when `follow` is set (the
/// special files below are links to /dev and /proc, outside the repository).
fn check_within_following(paths: &[&Path], secs: u64, follow: bool) -> platcheck::engine::Outcome {
    let paths: Vec<std::path::PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let overrides = platcheck::settings::Overrides {
            today: Some(common::today()),
            follow_external_links: follow,
            ..Default::default()
        };
        let _ = tx.send(platcheck::engine::run(&paths, &common::root(), &overrides).unwrap());
    });
    rx.recv_timeout(std::time::Duration::from_secs(secs))
        .expect("the run finishes instead of blocking on a special file")
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success(), "mkfifo {}", path.display());
}

fn pc001(findings: &[Finding], file: &str) -> String {
    one(findings, file, RuleId::PC001).message
}

#[test]
fn special_files_are_reported_by_kind_and_never_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\n");
    write(
        d,
        "witness.yaml",
        contract("witness", "  ha:\n    rpoo: 0s\n"),
    );
    mkfifo(&d.join("pipe.yaml"));
    std::fs::create_dir(d.join("migrations")).unwrap();
    mkfifo(&d.join("migrations/V1__pipe.sql"));
    let _socket = std::os::unix::net::UnixListener::bind(d.join("sock.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/null", d.join("null.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.md")).unwrap();
    std::os::unix::fs::symlink("self.yaml", d.join("self.yaml")).unwrap();

    // Found while walking: the links to /dev lead out of the repository.
    let contained = check_within(&[d], 60);
    for name in ["null.yaml", "zero.md"] {
        assert!(pc001(&contained.findings, name).contains("outside the repository"));
    }
    // Followed on request, they are still never opened.
    let walked = check_within_following(&[d], 60, true);
    let f = &walked.findings;
    assert!(pc001(f, "/pipe.yaml").contains("a FIFO (named pipe) is not a regular file"));
    assert!(pc001(f, "V1__pipe.sql").contains("FIFO"));
    assert!(pc001(f, "sock.yaml").contains("a socket is not a regular file"));
    assert!(pc001(f, "null.yaml").contains("a character device"));
    assert!(pc001(f, "zero.md").contains("a character device"));
    assert_eq!(
        pc001(f, "self.yaml"),
        "cannot check this file: symlink loop (too many levels of symbolic links)"
    );
    // The rest of the repository is still checked.
    one(f, "witness.yaml", RuleId::PC003);

    // Named on the command line, the pre-commit case: opening `pipe.yaml`
    // for reading would wait for a writer that never comes, and reading
    // `/dev/zero` would never end.
    for name in ["pipe.yaml", "zero.md", "null.yaml", "sock.yaml"] {
        let explicit = check_within_following(&[&d.join(name)], 30, true);
        let msg = pc001(&explicit.findings, name);
        assert!(
            msg.contains("is not a regular file; skipped"),
            "{name}: {msg}"
        );
    }
    let looped = check_within(&[&d.join("self.yaml")], 30);
    assert!(pc001(&looped.findings, "self.yaml").contains("symbolic links"));
}

#[test]
fn an_ignore_file_that_is_a_fifo_skips_its_directory_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\n");
    write(d, "ok/a.yaml", contract("a", "  ha:\n    rpoo: 0s\n"));
    write(d, "blocked/b.yaml", contract("b", "  ha:\n    rpoo: 0s\n"));
    mkfifo(&d.join("blocked/.gitignore"));
    let outcome = check_within(&[d], 60);
    let f = &outcome.findings;
    one(f, "ok/a.yaml", RuleId::PC003);
    let msg = pc001(f, "blocked/.gitignore");
    assert!(
        msg.contains("FIFO") && msg.contains("blocked is not walked"),
        "{msg}"
    );
    assert!(at(f, "blocked/b.yaml").is_empty());

    // The same when the FIFO sits in the directory given on the command line.
    let root = check_within(&[&d.join("blocked")], 30);
    assert!(pc001(&root.findings, "blocked/.gitignore").contains("not walked"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_read_error_on_a_regular_file_is_reported() {
    // `/proc/self/mem` is a regular file whose first page is unmapped:
    // reading it fails with EIO, for root too.
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\n");
    std::os::unix::fs::symlink("/proc/self/mem", d.join("mem.yaml")).unwrap();
    let outcome = check_within_following(&[d], 30, true);
    let msg = pc001(&outcome.findings, "mem.yaml");
    assert!(msg.contains("Input/output error"), "{msg}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_permission_denied_file_is_reported_and_the_rest_checked() {
    // Root reads any file, so as root the binary runs as `nobody` through
    // setpriv (util-linux); as any other user a mode-000 file suffices.
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(d, "platcheck.yaml", "version: 1\ntoday: 2026-11-30\n");
    write(d, "a.yaml", contract("a", "  ha:\n    rpoo: 0s\n"));
    write(d, "secret.yaml", contract("secret", "  region: x\n"));
    std::fs::set_permissions(
        d.join("secret.yaml"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_platcheck");
    let is_root = std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap();
    let mut cmd = if is_root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = cmd
        .args(["check", "--format", "json", "."])
        .current_dir(d)
        .output()
        .expect("platcheck runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let findings = json["findings"].as_array().expect("findings array");
    let of = |file: &str, rule: &str| {
        findings
            .iter()
            .filter(|f| f["file"] == file && f["rule"] == rule)
            .map(|f| f["message"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        of("secret.yaml", "PC001"),
        ["cannot check this file: permission denied"]
    );
    assert_eq!(of("a.yaml", "PC003").len(), 1, "{json:#}");
}
