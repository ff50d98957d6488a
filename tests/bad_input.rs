//! Bad input: every case gives a located PC finding (or a clear run error)
//! in bounded time and memory, the other files are still checked, and
//! nothing panics. Large and hostile inputs are generated here rather than
//! committed.
mod common;
use platcheck::{Finding, RuleId};
use std::path::Path;

const HEAD: &str =
    "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: NAME\n  owner: team\nspec:\n";

fn contract(name: &str, spec: &str) -> String {
    format!("{}{spec}", HEAD.replace("NAME", name))
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn at<'a>(findings: &'a [Finding], file: &str) -> Vec<&'a Finding> {
    findings.iter().filter(|f| f.file.ends_with(file)).collect()
}

fn one(findings: &[Finding], file: &str, rule: RuleId) -> Finding {
    let hits: Vec<_> = at(findings, file)
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{file}: expected one {rule}, got {:#?}",
        at(findings, file)
    );
    hits[0].clone()
}

#[test]
fn every_bad_input_is_located_and_the_rest_is_still_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\ntoday: 2026-11-30\n");
    // A witness that must still be checked whatever else the run meets.
    write(
        d,
        "witness.yaml",
        contract("witness", "  ha:\n    rpoo: 0s\n"),
    );
    write(d, "empty.yaml", "");
    write(d, "comments-only.yaml", "# nothing here yet\n");
    write(
        d,
        "not-ours.yaml",
        "apiVersion: apps/v1\nkind: Deployment\n",
    );
    let mut latin1 = contract("latin", "  region: eu-west-1\n").into_bytes();
    latin1.extend_from_slice(b"  # caf\xe9\n");
    write(d, "latin1.yaml", latin1);
    write(
        d,
        "bom.yaml",
        format!("\u{feff}{}", contract("bom", "  ha:\n    failover: auto\n")),
    );
    write(
        d,
        "crlf.yaml",
        contract("crlf", "  ha:\n    failover: auto\n").replace('\n', "\r\n"),
    );
    write(
        d,
        "syntax.yaml",
        contract("syntax", "  ha: [unclosed\n  region: x\n"),
    );
    write(
        d,
        "dupkey.yaml",
        contract("dupkey", "  region: a\n  region: b\n"),
    );
    let mut bomb = contract("bomb", "  x:\n");
    bomb.push_str("    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        bomb.push_str(&format!("    a{i}: &a{i} [{refs}]\n"));
    }
    write(d, "bomb.yaml", bomb);
    let deep = format!(
        "{}  x: {}{}\n",
        HEAD.replace("NAME", "deep"),
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    write(d, "deep.yaml", deep);
    let mut big = contract("big", "  region: eu-west-1\n");
    let filler = format!("  # {}\n", "x".repeat(1000));
    while big.len() < 50 * 1024 * 1024 {
        big.push_str(&filler);
    }
    write(d, "big.yaml", big);
    write(
        d,
        "types.yaml",
        contract(
            "types",
            "  ha:\n    fencing: \"yes\"\n  sharding:\n    shard_count: many\n",
        ),
    );
    write(
        d,
        "kind.yaml",
        contract("kind", "  region: x\n").replace("kind: Cluster", "kind: Clusterr"),
    );
    write(
        d,
        "api.yaml",
        contract("api", "  region: x\n").replace("platcheck/v1", "platcheck/v9"),
    );
    write(d, "dup-a.yaml", contract("same", "  region: x\n"));
    write(d, "dup-b.yaml", contract("same", "  region: y\n"));
    std::os::unix::fs::symlink(d.join("gone.yaml"), d.join("dangling.yaml")).unwrap();
    std::fs::create_dir(d.join("loop")).unwrap();
    std::os::unix::fs::symlink(d.join("loop"), d.join("loop/back")).unwrap();

    let started = std::time::Instant::now();
    let outcome = common::check(&[d]);
    let f = &outcome.findings;
    // Bounded work, not a benchmark: a hang would be minutes.
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );

    let w = one(f, "witness.yaml", RuleId::PC003);
    assert_eq!((w.line, w.column), (8, 5));
    for quiet in ["empty.yaml", "comments-only.yaml", "not-ours.yaml"] {
        assert!(
            at(f, quiet).is_empty(),
            "{quiet} is not a contract and is left alone"
        );
    }
    let l = one(f, "latin1.yaml", RuleId::PC001);
    assert!(l.message.contains("not valid UTF-8"), "{}", l.message);
    assert_eq!((l.line, l.column), (1, 1));
    // BOM and CRLF do not shift columns.
    let b = one(f, "bom.yaml", RuleId::PC004);
    let c = one(f, "crlf.yaml", RuleId::PC004);
    assert_eq!((b.line, b.column, b.end_column), (8, 15, 19));
    assert_eq!((c.line, c.column, c.end_column), (8, 15, 19));
    let s = one(f, "syntax.yaml", RuleId::PC002);
    assert!(
        s.line >= 7,
        "syntax error located at its line, got {}",
        s.line
    );
    let k = one(f, "dupkey.yaml", RuleId::PC002);
    assert!(k.message.contains("duplicate"), "{}", k.message);
    assert_eq!((k.line, k.column), (8, 3));
    let bo = one(f, "bomb.yaml", RuleId::PC002);
    assert!(
        bo.message.contains("budget") || bo.message.contains("alias"),
        "{}",
        bo.message
    );
    let de = one(f, "deep.yaml", RuleId::PC002);
    assert!(
        de.message.contains("recursion") || de.message.contains("depth"),
        "{}",
        de.message
    );
    let bg = one(f, "big.yaml", RuleId::PC001);
    assert!(bg.message.contains("larger than"), "{}", bg.message);
    assert!(
        at(f, "types.yaml")
            .iter()
            .filter(|x| x.rule == RuleId::PC004)
            .count()
            == 2
    );
    assert!(
        one(f, "kind.yaml", RuleId::PC006)
            .message
            .contains("Clusterr")
    );
    assert!(
        one(f, "api.yaml", RuleId::PC006)
            .message
            .contains("platcheck/v9")
    );
    assert!(
        one(f, "dup-b.yaml", RuleId::PC007)
            .message
            .contains("dup-a.yaml:4")
    );
    assert!(
        one(f, "dangling.yaml", RuleId::PC001)
            .message
            .contains("no such file")
    );
    let lp: Vec<_> = f
        .iter()
        .filter(|x| x.rule == RuleId::PC001 && x.message.contains("symlink loop"))
        .collect();
    assert_eq!(lp.len(), 1, "{f:#?}");
}

#[test]
fn max_file_size_is_configurable() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "platcheck.yaml", "version: 1\nmax_file_size: 1KiB\n");
    let mut text = contract("padded", "  region: x\n");
    text.push_str(&format!("# {}\n", "x".repeat(2000)));
    write(d, "padded.yaml", text);
    let outcome = common::check(&[d]);
    let f = one(&outcome.findings, "padded.yaml", RuleId::PC001);
    assert!(f.message.contains("1,024 byte limit"), "{}", f.message);
}

#[test]
fn include_and_exclude_globs_and_gitignore_are_honoured() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "platcheck.yaml",
        "version: 1\ninclude: [contracts/**]\nexclude: [contracts/archive/**]\n",
    );
    write(d, ".gitignore", "contracts/generated/\n");
    let bad = contract("x", "  ha:\n    rpoo: 0s\n");
    write(d, "contracts/a.yaml", bad.replace("name: x", "name: a"));
    write(
        d,
        "contracts/archive/b.yaml",
        bad.replace("name: x", "name: b"),
    );
    write(
        d,
        "contracts/generated/c.yaml",
        bad.replace("name: x", "name: c"),
    );
    write(d, "other/d.yaml", bad.replace("name: x", "name: d"));
    let outcome = common::check(&[d]);
    // Rule families judge these minimal contracts too; the typo (PC003) is
    // the one finding per checked file that this test counts.
    let typo = |f: &&platcheck::Finding| f.rule == RuleId::PC003;
    let files: Vec<&str> = outcome
        .findings
        .iter()
        .filter(typo)
        .map(|f| f.file.as_str())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with("contracts/a.yaml"));
    // An explicitly named file is checked even outside `include`.
    let explicit = common::check(&[&d.join("other/d.yaml")]);
    assert_eq!(explicit.findings.iter().filter(typo).count(), 1);
}

#[test]
fn an_invalid_glob_stops_the_run_with_its_place_in_the_config() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "platcheck.yaml",
        "version: 1\ninclude:\n  - contracts/**\n  - \"docs/[a-\"\nexclude: [\"x/{a,b\"]\n",
    );
    write(d, "contracts/a.yaml", contract("a", "  ha:\n    rpo: 0s\n"));
    let o = common::run_in(d, &["check", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("platcheck.yaml:4:5: invalid `include` glob `docs/[a-`: a character class `[` is never closed; expected a `]` after it"),
        "{err}"
    );
    // Once the include is fixed, the exclude is located the same way.
    write(d, "platcheck.yaml", "version: 1\nexclude: [\"x/{a,b\"]\n");
    let o = common::run_in(d, &["check", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("platcheck.yaml:2:11: invalid `exclude` glob `x/{a,b`: alternatives `{` are never closed; expected a `}`"),
        "{err}"
    );
}

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
