//! The real `pre-commit` for the entry-point tests, installed the way
//! `.ci/integration.sh` installs it (pip, the pin of .ci/requirements.txt)
//! into a venv under target/, and a platcheck wheel of this very build for
//! the `language: python` hook (pip's find-links, no index).
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pin(name: &str) -> String {
    let reqs = std::fs::read_to_string(root().join(".ci/requirements.txt")).unwrap();
    reqs.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}==")))
        .map(|v| format!("{name}=={}", v.trim()))
        .unwrap_or_else(|| panic!("no {name}== pin in .ci/requirements.txt"))
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed; install pre-commit by hand with `python3 -m venv target/precommit-venv && target/precommit-venv/bin/pip install {}` (network access to PyPI is needed once):\n{}{}",
        pin("pre-commit"),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// target/precommit-venv: pre-commit, and a wheel directory holding
/// setuptools (the hook repository's root shim builds with it).
pub struct Tools {
    pub pre_commit: PathBuf,
    pub wheels: PathBuf,
}

pub fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let venv = root().join("target/precommit-venv");
        let pre_commit = venv.join("bin/pre-commit");
        let wheels = venv.join("wheels");
        if !pre_commit.is_file() {
            run(
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
                "python3 -m venv target/precommit-venv",
            );
            run(
                Command::new(venv.join("bin/pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check"])
                    .arg(pin("pre-commit")),
                "pip install pre-commit",
            );
        }
        if !has_setuptools(&wheels) {
            run(
                Command::new(venv.join("bin/pip"))
                    .args([
                        "download",
                        "--quiet",
                        "--disable-pip-version-check",
                        "--only-binary=:all:",
                        "--dest",
                    ])
                    .arg(&wheels)
                    .arg("setuptools==80.9.0"),
                "pip download setuptools",
            );
        }
        Tools { pre_commit, wheels }
    })
}

fn has_setuptools(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("setuptools-"))
    })
}

/// A find-links directory with setuptools and a `platcheck` wheel whose
/// script is this build's binary (what the release's maturin wheel holds).
pub fn wheel_dir(into: &Path) -> PathBuf {
    let t = tools();
    let dir = into.join("wheels");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&t.wheels).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let script = r#"
import base64, hashlib, sys, zipfile
binary, version, out = sys.argv[1:]
dist = f"platcheck-{version}"
files = [
    (f"{dist}.data/scripts/platcheck", open(binary, "rb").read(), 0o755),
    (f"{dist}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: platcheck\nVersion: {version}\n".encode(), 0o644),
    (f"{dist}.dist-info/WHEEL", b"Wheel-Version: 1.0\nGenerator: platcheck-tests\nRoot-Is-Purelib: false\nTag: py3-none-any\n", 0o644),
]
record = []
with zipfile.ZipFile(f"{out}/{dist}-py3-none-any.whl", "w", zipfile.ZIP_STORED) as z:
    for name, data, mode in files:
        info = zipfile.ZipInfo(name)
        info.external_attr = mode << 16
        z.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}.dist-info/RECORD,,")
    z.writestr(f"{dist}.dist-info/RECORD", "\n".join(record) + "\n")
"#;
    run(
        Command::new("python3")
            .args(["-c", script, env!("CARGO_BIN_EXE_platcheck")])
            .arg(env!("CARGO_PKG_VERSION"))
            .arg(&dir),
        "building the test wheel",
    );
    dir
}
