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
