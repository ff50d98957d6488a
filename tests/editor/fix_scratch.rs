//! `fix --diff` replays the passes in a scratch copy made inside the
//! repository and removed afterwards: nothing is written to the system's
//! temporary directory, no copy is left behind, and links are met in the
//! copy as `fix` and the check meet them: `fix` refuses to write through a
//! link inside the repository and `--diff` refuses the same way (naming
//! the repository's path); a link out of it is not read by either.
use super::{PG, bin};
use std::path::Path;

const IDX: &str = "CREATE INDEX idx_c ON orders (customer_id);\n";

fn write(p: &Path, t: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, t).unwrap();
}

/// `fix --diff .` with TMPDIR pointed at an empty directory: (exit code,
/// stdout, stderr), after checking that TMPDIR stayed empty and no scratch
/// copy is left in the repository.
fn diff_in(dir: &Path) -> (Option<i32>, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["fix", "--diff", "."])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "written to TMPDIR: {left:?}");
    let scratch: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with(".platcheck-fix-scratch-"))
        .collect();
    assert!(scratch.is_empty(), "scratch copy left behind: {scratch:?}");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn repo() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    write(&repo.path().join("platcheck.yaml"), PG);
    write(
        &repo.path().join("migrations/V1__base.sql"),
        "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint);\n",
    );
    repo
}

#[test]
fn diff_scratch_stays_in_the_repository() {
    let repo = repo();
    write(&repo.path().join("migrations/V2__idx.sql"), IDX);
    let (rc, diff, err) = diff_in(repo.path());
    assert_eq!(rc, Some(1), "{diff}{err}");
    assert!(diff.contains("+++ b/migrations/V2__idx.sql"), "{diff}");
}

#[cfg(unix)]
#[test]
fn diff_meets_a_link_inside_the_repository_as_fix_does() {
    let repo = repo();
    let dir = repo.path();
    write(&dir.join("shared/V2__idx.sql"), IDX);
    std::os::unix::fs::symlink(
        dir.join("shared/V2__idx.sql"),
        dir.join("migrations/V2__idx.sql"),
    )
    .unwrap();
    let (rc, diff, err) = diff_in(dir);
    let (fix_rc, _, fix_err) = bin(dir, &["fix", "."]);
    assert_eq!((rc, fix_rc), (Some(2), 2), "{diff}{err}{fix_err}");
    for e in [&err, &fix_err] {
        assert!(
            e.contains(
                "V2__idx.sql: is a symbolic link; platcheck fix does not write through links"
            ),
            "{e}"
        );
        assert!(
            !e.contains(".platcheck-fix-scratch-"),
            "the copy's path: {e}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("shared/V2__idx.sql")).unwrap(),
        IDX
    );
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_repository_is_read_by_neither() {
    let outside = tempfile::tempdir().unwrap();
    let repo = repo();
    let dir = repo.path();
    write(&outside.path().join("V3__out.sql"), IDX);
    std::os::unix::fs::symlink(
        outside.path().join("V3__out.sql"),
        dir.join("migrations/V3__out.sql"),
    )
    .unwrap();
    let (rc, diff, err) = diff_in(dir);
    assert_eq!((rc, diff.as_str()), (Some(0), ""), "{err}");
    // `fix` exits 1 for the link the check reports; it writes nothing.
    let (_, fix_out, fix_err) = bin(dir, &["fix", "."]);
    assert!(
        format!("{fix_out}{fix_err}").contains("outside the repository"),
        "{fix_out}{fix_err}"
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("V3__out.sql")).unwrap(),
        IDX
    );
}

/// The names in `dir` with the scratch prefix.
fn scratch_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".platcheck-fix-scratch-"))
        .collect();
    v.sort();
    v
}

/// `fix --diff` killed with `sig` while its scratch copy exists removes
/// the copy and exits 128 + the signal. The copy is waited for by looking
/// (no clock): a run that ends before it is seen is retried on a larger
/// repository.
#[cfg(unix)]
fn killed_diff_leaves_no_copy(sig: i32) {
    for size in [200usize, 800, 3200, 12800] {
        let repo = repo();
        let dir = repo.path();
        for i in 0..size {
            write(
                &dir.join(format!("migrations/V{}__idx.sql", i + 2)),
                &format!("CREATE INDEX idx_{i} ON orders (customer_id);\n"),
            );
        }
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(["fix", "--diff", "."])
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let seen = loop {
            if !scratch_names(dir).is_empty() {
                break true;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            std::thread::yield_now();
        };
        if !seen {
            continue;
        }
        // SAFETY: signals the child this test spawned.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        let out = child.wait_with_output().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            (out.status.code(), out.status.signal()),
            (Some(128 + sig), None),
            "the signal thread cleans up and exits: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(scratch_names(dir), Vec::<String>::new(), "copy left behind");
        return;
    }
    panic!("fix --diff never made its scratch copy while running");
}

#[cfg(unix)]
#[test]
fn sigterm_during_diff_removes_the_scratch_copy() {
    killed_diff_leaves_no_copy(libc::SIGTERM);
}

#[cfg(unix)]
#[test]
fn sigint_during_diff_removes_the_scratch_copy() {
    killed_diff_leaves_no_copy(libc::SIGINT);
}

/// A copy an earlier run left (SIGKILL) is removed by the next run: only a
/// directory holding platcheck's owner file whose process is gone. A
/// directory with the prefix but no owner file, one whose owner is alive,
/// and a file with the prefix stay.
#[cfg(unix)]
#[test]
fn next_run_removes_stale_copies_only() {
    let repo = repo();
    let dir = repo.path();
    write(&dir.join("migrations/V2__idx.sql"), IDX);
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let owner = ".platcheck-fix-scratch-owner";
    let stale = dir.join(".platcheck-fix-scratch-old1");
    write(&stale.join(owner), &format!("{dead}\n"));
    write(&stale.join("migrations/V1__base.sql"), IDX);
    let live = dir.join(".platcheck-fix-scratch-live");
    write(&live.join(owner), &format!("{}\n", std::process::id()));
    write(
        &dir.join(".platcheck-fix-scratch-foreign/notes.txt"),
        "mine\n",
    );
    write(&dir.join(".platcheck-fix-scratch-file"), "a file\n");
    for args in [&["fix", "--diff", "."][..], &["fix", "."][..]] {
        let (rc, out, err) = bin(dir, args);
        assert!(rc == 0 || rc == 1, "{out}{err}");
        assert_eq!(
            scratch_names(dir),
            [
                ".platcheck-fix-scratch-file",
                ".platcheck-fix-scratch-foreign",
                ".platcheck-fix-scratch-live"
            ],
            "{args:?}"
        );
        write(&stale.join(owner), &format!("{dead}\n"));
    }
}
