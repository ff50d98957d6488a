//! `platcheck verify` reads a migrations directory like every input: a
//! FIFO or `/dev/zero` in it stops verify with the file's name instead of
//! hanging it or growing it without end, a link out of the repository is
//! refused by name, and a link loop is walked once. The offline replay
//! (`--observed`) needs no server.
#![cfg(unix)]
mod common;
use common::sandbox::{SECRET, Sandbox, stderr};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const RECORDING: &str = r#"{"dialect": "postgres", "server_version": "15.0", "statements": []}"#;

/// `verify --observed rec.json m` in the sandbox, killed (and failed) if it
/// is still running after a minute: the cases below used to hang.
fn verify(s: &Sandbox) -> Output {
    verify_with(s, &[])
}

fn verify_with(s: &Sandbox, flags: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["verify", "--observed", "rec.json"])
        .args(flags)
        .arg("m")
        .current_dir(&s.repo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("verify did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(!all.contains(SECRET), "the outside secret leaked:\n{all}");
    o
}

fn sandbox() -> Sandbox {
    let s = Sandbox::new("version: 1\ntoday: 2026-11-30\n");
    s.write("rec.json", RECORDING);
    s.write("m/V1__a.sql", "CREATE TABLE a (id int);\n");
    s
}

#[test]
fn a_fifo_or_a_device_in_a_verified_directory_stops_verify_by_name() {
    let s = sandbox();
    let fifo = s.repo.join("m/V2__b.sql");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let o = verify(&s);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("m/V2__b.sql: a FIFO (named pipe) is not a regular file"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(&fifo).unwrap();
    s.link("m/V3__z.sql", std::path::Path::new("/dev/zero"));
    let o = verify(&s);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("m/V3__z.sql: "), "{}", stderr(&o));
}

#[test]
fn a_link_out_of_the_repository_is_refused_and_a_loop_walked_once() {
    let s = sandbox();
    s.link("m/ext", &s.outside);
    let o = verify(&s);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("m/ext: resolves to") && stderr(&o).contains("outside the repository"),
        "{}",
        stderr(&o)
    );
    // The refusal names a flag verify has: with it, the link is followed.
    assert!(
        stderr(&o).contains("pass --follow-external-links"),
        "{}",
        stderr(&o)
    );
    let o = verify_with(&s, &["--follow-external-links"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_file(s.repo.join("m/ext")).unwrap();
    s.link("m/loop", std::path::Path::new("."));
    let o = verify(&s);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    s.assert_outside_unchanged();
}
