//! `platcheck verify` with no --database-url at all: it starts its own
//! throwaway PostgreSQL or MariaDB from the installed binaries, replays
//! there, and leaves nothing behind; without the binaries it says what to
//! install.
use std::process::{Command, Output};

fn skip() -> bool {
    let skip = std::env::var("PLATCHECK_DB_TESTS").as_deref() == Ok("0");
    if skip {
        println!("skipped: PLATCHECK_DB_TESTS=0: database tests skipped");
    }
    skip
}

fn verify(args: &[&str], sql: &str) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("V1__orders.sql"), sql).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .current_dir(dir.path())
        .arg("verify")
        .args(args)
        .arg("V1__orders.sql")
        .output()
        .expect("run platcheck");
    (out, dir)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// No directory of the finished run is left in the temp directory.
fn nothing_left(pid: u32) {
    let prefix = format!("platcheck-verify-{pid}-");
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

fn run_and_check(args: &[&str], sql: &str, server: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("V1__orders.sql"), sql).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .current_dir(dir.path())
        .arg("verify")
        .args(args)
        .arg("V1__orders.sql")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run platcheck");
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains(&format!("verify: {server}")), "{t}");
    assert!(t.contains("(throwaway server, removed)"), "{t}");
    assert!(t.contains("0 disagreements"), "{t}");
    nothing_left(pid);
}

#[test]
fn postgres_by_default_with_no_database_url() {
    if skip() {
        return;
    }
    run_and_check(
        &[],
        "CREATE TABLE orders (id bigint PRIMARY KEY, note text);\n\
         CREATE INDEX CONCURRENTLY orders_note ON orders (note);\n\
         CREATE EXTENSION IF NOT EXISTS pgcrypto;\n\
         ALTER TABLE orders ADD COLUMN total numeric;\n",
        "PostgreSQL",
    );
}

#[test]
fn mariadb_with_no_database_url() {
    if skip() {
        return;
    }
    run_and_check(
        &["--server", "mariadb"],
        "CREATE TABLE orders (id bigint PRIMARY KEY, note varchar(100));\n\
         ALTER TABLE orders ADD COLUMN total decimal(10,2);\n\
         ALTER TABLE orders ADD INDEX orders_note (note);\n",
        "MariaDB",
    );
}

#[test]
fn a_missing_server_binary_says_what_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let bin = empty.path().display().to_string();
    for (server, install) in [
        ("postgres", "apt-get install postgresql"),
        ("mariadb", "apt-get install mariadb-server"),
    ] {
        let (out, _d) = verify(&["--server", server, "--engine-bin", &bin], "SELECT 1;\n");
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(t.contains(install), "{t}");
        assert!(
            t.contains("--engine-bin") && t.contains("--database-url"),
            "{t}"
        );
        assert!(t.contains(&bin), "names where it looked: {t}");
    }
}

#[test]
fn mysql_is_not_mistaken_for_mariadb() {
    // --server mysql must not quietly start MariaDB's mysqld.
    let mysqld = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain(["/usr/sbin".into(), "/usr/bin".into()])
        .map(|d| d.join("mysqld"))
        .find(|p| p.is_file());
    let version = mysqld.as_ref().map(|m| {
        Command::new(m)
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
            .unwrap_or_default()
    });
    let (out, _d) = verify(&["--server", "mysql"], "CREATE TABLE t (a int);\n");
    let t = text(&out);
    match version {
        Some(v) if v.contains("MariaDB") => {
            assert_eq!(out.status.code(), Some(2), "{t}");
            assert!(
                t.contains("is MariaDB's server") && t.contains("--server mariadb"),
                "{t}"
            );
        }
        Some(_) => assert_eq!(out.status.code(), Some(0), "MySQL's own mysqld: {t}"),
        None => {
            assert_eq!(out.status.code(), Some(2), "{t}");
            assert!(t.contains("Install MySQL's server"), "{t}");
        }
    }
}
