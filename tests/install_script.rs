//! ci/action/install.sh against a fake release on 127.0.0.1 (see
//! support/release_server.rs): the good release installs and runs, and a bad
//! checksum, a missing asset, a failing attestation or an unknown platform
//! install nothing and say why. `gh` is always a stand-in (PLATCHECK_GH), so
//! nothing here talks to anything but the local server.
mod common;
#[path = "support/release_server.rs"]
mod release_server;
use release_server::{Server, VERSION, asset, pack, release_files, tag};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const LINUX: &str = "x86_64-unknown-linux-musl";

struct Run {
    _tmp: tempfile::TempDir,
    ok: bool,
    stdout: String,
    stderr: String,
    github_path: String,
    outputs: String,
    bin: PathBuf,
}

impl Run {
    fn installed(&self) -> bool {
        self.bin.join("platcheck").exists()
    }
}

/// A stand-in `gh` that records its arguments and exits with `status`.
fn fake_gh(dir: &Path, status: i32) -> (PathBuf, PathBuf) {
    let gh = dir.join("gh");
    let log = dir.join("gh.log");
    std::fs::write(
        &gh,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexit {status}\n",
            log.display()
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&gh).status().unwrap();
    (gh, log)
}

fn install(server: &Server, command: &str, env: &[(&str, &str)]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().to_path_buf();
    let github_path = tmp.join("github_path");
    let outputs = tmp.join("github_output");
    std::fs::write(&github_path, "").unwrap();
    std::fs::write(&outputs, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg(common::root().join("ci/action/install.sh"))
        .arg(command)
        .current_dir(&tmp)
        .env("ACTION_PATH", common::root())
        .env("RUNNER_TEMP", &tmp)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env("GITHUB_PATH", &github_path)
        .env("GITHUB_OUTPUT", &outputs)
        .env("PLATCHECK_RELEASES", server.releases_url())
        .env("PLATCHECK_VERSION", tag())
        .env("PLATCHECK_GH", tmp.join("no-gh-here"))
        .env_remove("ACTION_REF")
        .env_remove("ACTION_REPOSITORY")
        .env_remove("GITHUB_SERVER_URL");
    for proxy in [
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
    ] {
        cmd.env_remove(proxy);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("bash runs");
    Run {
        _tmp: dir,
        ok: o.status.success(),
        stdout: String::from_utf8_lossy(&o.stdout).to_string(),
        stderr: String::from_utf8_lossy(&o.stderr).to_string(),
        github_path: std::fs::read_to_string(&github_path).unwrap(),
        outputs: std::fs::read_to_string(&outputs).unwrap(),
        bin: tmp.join("platcheck/bin"),
    }
}

fn good_release() -> (tempfile::TempDir, BTreeMap<String, Vec<u8>>) {
    let (dir, path) = pack(LINUX);
    let files = release_files(&path);
    (dir, files)
}

fn sums_path() -> String {
    format!("/releases/download/{}/SHA256SUMS", tag())
}

fn asset_path(target: &str) -> String {
    format!("/releases/download/{}/{}", tag(), asset(target))
}

#[test]
fn a_good_release_installs_verified_and_runs() {
    let (_dir, files) = good_release();
    let server = Server::start(files);
    let gh_dir = tempfile::tempdir().unwrap();
    let (gh, log) = fake_gh(gh_dir.path(), 0);
    let r = install(
        &server,
        "install",
        &[
            ("PLATCHECK_GH", gh.to_str().unwrap()),
            ("ACTION_REPOSITORY", "platcheck/platcheck"),
        ],
    );
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains(&format!("checksum: {} matches SHA256SUMS", asset(LINUX)))
    );
    assert!(
        r.stdout
            .contains("attestation: verified for platcheck/platcheck")
    );
    assert!(r.stdout.contains(&format!("installed platcheck {VERSION}")));
    assert_eq!(r.github_path.trim(), r.bin.display().to_string());
    assert_eq!(
        std::fs::read(r.bin.join("platcheck")).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_platcheck")).unwrap(),
        "the installed binary is the packed one"
    );
    let gh_args = std::fs::read_to_string(log).unwrap();
    assert!(
        gh_args.starts_with("attestation verify ")
            && gh_args.contains(&format!("/{} --repo platcheck/platcheck", asset(LINUX))),
        "{gh_args}"
    );
    assert_eq!(server.requests(), [sums_path(), asset_path(LINUX)]);
    // The installed binary works: the examples through it.
    let o = Command::new(r.bin.join("platcheck"))
        .args(["check", "--quiet", "examples/clean"])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn the_default_version_follows_the_action_ref_then_cargo_toml() {
    let (_dir, files) = good_release();
    let server = Server::start(files);
    // A tag ref pins both the action and the binary.
    let r = install(
        &server,
        "plan",
        &[("PLATCHECK_VERSION", ""), ("ACTION_REF", &tag())],
    );
    assert!(r.ok, "{}", r.stdout);
    assert!(r.outputs.contains("mode=release\n"), "{}", r.outputs);
    assert!(r.outputs.contains(&format!("version={}\n", tag())));
    // A commit pin: the version that commit's Cargo.toml declares.
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let r = install(
        &server,
        "install",
        &[("PLATCHECK_VERSION", ""), ("ACTION_REF", sha)],
    );
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.installed());
    assert_eq!(server.requests(), [sums_path(), asset_path(LINUX)]);
    // `source` needs a cache key from the action's lock file.
    let r = install(&server, "plan", &[("PLATCHECK_VERSION", "source")]);
    assert!(r.outputs.contains("mode=source\n"), "{}", r.outputs);
    assert!(r.outputs.contains("cache-key=platcheck-source-Linux-X64-"));
}

#[test]
fn a_bad_checksum_installs_nothing() {
    let (_dir, mut files) = good_release();
    let sums = String::from_utf8(files[&sums_path()].clone()).unwrap();
    let forged = format!("{}{}", "0".repeat(64), &sums[64..]);
    files.insert(sums_path(), forged.into_bytes());
    let server = Server::start(files);
    let r = install(&server, "install", &[]);
    assert!(!r.ok);
    assert!(
        r.stdout.contains(&format!(
            "::error title=platcheck::checksum mismatch for {}: SHA256SUMS of {} says {}",
            asset(LINUX),
            tag(),
            "0".repeat(64)
        )),
        "{}",
        r.stdout
    );
    assert!(!r.installed());
    assert!(r.github_path.is_empty(), "nothing added to PATH");

    // SHA256SUMS without a line for the asset is no better.
    let (_dir, mut files) = good_release();
    files.insert(sums_path(), b"abc  something-else.tar.gz\n".to_vec());
    let server = Server::start(files);
    let r = install(&server, "install", &[]);
    assert!(!r.ok);
    assert!(r.stdout.contains(&format!(
        "SHA256SUMS of {} has no line for {}",
        tag(),
        asset(LINUX)
    )));
    assert!(!r.installed());
}

#[test]
fn a_missing_asset_or_release_is_named() {
    let (_dir, mut files) = good_release();
    files.remove(&asset_path(LINUX));
    let server = Server::start(files);
    let r = install(&server, "install", &[]);
    assert!(!r.ok);
    assert!(
        r.stdout.contains(&format!(
            "release {} has no asset {} (",
            tag(),
            asset(LINUX)
        )),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("answered 404"));
    assert!(!r.installed());

    // A release that does not exist at all: its checksums come first.
    let server = Server::start(BTreeMap::new());
    let r = install(&server, "install", &[("PLATCHECK_VERSION", "v9.9.9")]);
    assert!(!r.ok);
    assert!(
        r.stdout.contains("release v9.9.9 has no asset SHA256SUMS"),
        "{}",
        r.stdout
    );

    // Each supported runner asks for its own asset (Windows: a zip).
    let mut sums_only = BTreeMap::new();
    sums_only.insert(
        "/releases/download/v9.9.9/SHA256SUMS".to_string(),
        b"".to_vec(),
    );
    let server = Server::start(sums_only);
    for (os, arch, asset) in [
        ("Linux", "ARM64", "aarch64-unknown-linux-musl.tar.gz"),
        ("macOS", "X64", "x86_64-apple-darwin.tar.gz"),
        ("macOS", "ARM64", "aarch64-apple-darwin.tar.gz"),
        ("Windows", "X64", "x86_64-pc-windows-msvc.zip"),
    ] {
        let r = install(
            &server,
            "install",
            &[
                ("RUNNER_OS", os),
                ("RUNNER_ARCH", arch),
                ("PLATCHECK_VERSION", "v9.9.9"),
            ],
        );
        assert!(
            r.stdout
                .contains(&format!("has no asset platcheck-v9.9.9-{asset} (")),
            "{os}-{arch}: {}",
            r.stdout
        );
    }
}

#[test]
fn an_unknown_platform_downloads_nothing() {
    let server = Server::start(BTreeMap::new());
    for (os, arch) in [("FreeBSD", "X64"), ("Windows", "ARM64"), ("Linux", "ARM")] {
        let r = install(
            &server,
            "install",
            &[("RUNNER_OS", os), ("RUNNER_ARCH", arch)],
        );
        assert!(!r.ok);
        assert!(
            r.stdout.contains(&format!(
                "::error title=platcheck::no release binary for {os}-{arch}; use version: source"
            )),
            "{}",
            r.stdout
        );
        assert!(!r.installed());
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

#[test]
fn a_failing_attestation_installs_nothing_and_gh_is_optional_unless_required() {
    let (_dir, files) = good_release();
    let server = Server::start(files);
    let gh_dir = tempfile::tempdir().unwrap();
    let (gh, _) = fake_gh(gh_dir.path(), 1);
    let r = install(
        &server,
        "install",
        &[("PLATCHECK_GH", gh.to_str().unwrap())],
    );
    assert!(!r.ok);
    assert!(
        r.stdout
            .contains("its build provenance attestation does not verify for platcheck/platcheck"),
        "{}",
        r.stdout
    );
    assert!(!r.installed());

    // Without gh: SHA256SUMS alone, said out loud.
    let r = install(&server, "install", &[]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(
        "::notice title=platcheck::gh is not on PATH: the build provenance attestation was not verified"
    ));
    assert!(r.installed());
    // verify-attestation: true refuses to go on without gh.
    let r = install(&server, "install", &[("PLATCHECK_ATTESTATION", "true")]);
    assert!(!r.ok);
    assert!(
        r.stdout
            .contains("verify-attestation: true, but the gh CLI is not on PATH")
    );
    assert!(!r.installed());
    let r = install(&server, "install", &[("PLATCHECK_ATTESTATION", "false")]);
    assert!(r.ok);
    assert!(
        r.stdout
            .contains("attestation: not verified (verify-attestation: false)")
    );
}

#[test]
fn bad_versions_and_plain_http_are_refused_before_any_download() {
    let server = Server::start(BTreeMap::new());
    for bad in ["latest", "v1", "v1.2.3; rm -rf /", "1.2.3"] {
        let r = install(&server, "install", &[("PLATCHECK_VERSION", bad)]);
        assert!(!r.ok, "{bad}");
        assert!(
            r.stdout
                .contains("::error title=platcheck::version must be"),
            "{bad}: {}",
            r.stdout
        );
    }
    let r = install(
        &server,
        "install",
        &[("PLATCHECK_RELEASES", "http://releases.invalid/download")],
    );
    assert!(!r.ok);
    assert!(r.stdout.contains("release downloads must use https"));
    assert!(server.requests().is_empty());
}
