//! A temporary repository next to an "outside" directory holding a planted
//! secret, for tests that assert nothing outside the repository was read
//! (the secret never reaches the output) or changed (the outside tree is
//! byte-identical after the run).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const SECRET: &str = "PLANTED_SECRET_9f3c";

pub struct Sandbox {
    _tmp: tempfile::TempDir,
    pub repo: PathBuf,
    pub outside: PathBuf,
    before: BTreeMap<PathBuf, Vec<u8>>,
}

impl Sandbox {
    pub fn new(config: &str) -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret.env"), format!("TOKEN={SECRET}\n")).unwrap();
        std::fs::write(
            outside.join("schema.json"),
            format!("{{\"title\": \"{SECRET}\"}}"),
        )
        .unwrap();
        std::fs::write(repo.join("platcheck.yaml"), config).unwrap();
        let mut s = Sandbox {
            _tmp: tmp,
            repo,
            outside,
            before: BTreeMap::new(),
        };
        s.before = tree(&s.outside);
        s
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.repo.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[cfg(unix)]
    pub fn link(&self, rel: &str, target: &Path) {
        let p = self.repo.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, p).unwrap();
    }

    /// Adds a file outside the repository (before the run under test).
    pub fn plant_outside(&mut self, name: &str, text: &str) -> PathBuf {
        let p = self.outside.join(name);
        std::fs::write(&p, text).unwrap();
        self.before = tree(&self.outside);
        p
    }

    /// Runs the binary in the repository.
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_env(args, &[])
    }

    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_platcheck"));
        c.args(args)
            .current_dir(&self.repo)
            .env_remove("GITHUB_STEP_SUMMARY");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!all.contains(SECRET), "the outside secret leaked:\n{all}");
        // A caught panic is reported on stderr; stdout must not show one.
        assert!(
            !String::from_utf8_lossy(&o.stdout).contains("panicked at"),
            "the run panicked:\n{all}"
        );
        o
    }

    /// Asserts that nothing under `outside` changed since the sandbox was made.
    pub fn assert_outside_unchanged(&self) {
        assert_eq!(tree(&self.outside), self.before, "the outside tree changed");
    }
}

fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let meta = std::fs::symlink_metadata(&p).unwrap();
        if meta.is_dir() {
            out.extend(tree(&p));
        } else if meta.is_file() {
            out.insert(p.clone(), std::fs::read(&p).unwrap());
        } else {
            out.insert(p.clone(), b"<special>".to_vec());
        }
    }
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The findings of a `--format json` run, as (file, rule) pairs.
pub fn rules(o: &Output) -> Vec<(String, String)> {
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(o)));
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}
