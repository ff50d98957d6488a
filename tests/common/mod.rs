//! Shared helpers for the integration tests.
#![allow(dead_code)]
pub mod cache_runs;
pub mod sandbox;
use platcheck::engine::{self, Outcome};
use platcheck::output::{human, json};
use platcheck::settings::Overrides;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn today() -> jiff::civil::Date {
    "2026-11-30".parse().unwrap()
}

/// Runs the engine as `platcheck check <paths>` from the repository root,
/// with today pinned so snapshots never age.
pub fn check(paths: &[&Path]) -> Outcome {
    let overrides = Overrides {
        today: Some(today()),
        ..Overrides::default()
    };
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::run(&paths, &root(), &overrides).expect("run succeeds")
}

/// Runs snapshot assertions with the crate version replaced by `[VERSION]`
/// (in the JSON `version`, the human header, the versioned doc URLs), so a
/// release bump churns no snapshot.
pub fn versionless<R>(assertions: impl FnOnce() -> R) -> R {
    let mut settings = insta::Settings::clone_current();
    // Not inside a longer version (10.1.0, 0.1.0.5): the prefix and `\b`
    // keep a fixture's own version numbers as they are.
    let version = regex_escape(env!("CARGO_PKG_VERSION"));
    settings.add_filter(&format!(r"(?m)(^|[^0-9.]){version}\b"), "${1}[VERSION]");
    settings.bind(assertions)
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escape = !c.is_ascii_alphanumeric();
            escape.then_some('\\').into_iter().chain(std::iter::once(c))
        })
        .collect()
}

pub fn human(outcome: &Outcome) -> String {
    human::render(
        outcome,
        human::Style {
            color: false,
            width: 100,
            quiet: true,
        },
    )
}

pub fn json(outcome: &Outcome) -> String {
    json::render(outcome)
}

/// Runs a rule fixture. A fixture directory holding `git-base/` is checked
/// the way CI checks a change: `git-base/` is committed to a fresh git
/// repository in a temporary directory, the fixture's other files are laid
/// over it, and the run compares with that commit (`--base HEAD`).
pub fn check_fixture(path: &Path) -> Outcome {
    let base = root().join(path).join("git-base");
    if !base.is_dir() {
        return check(&[path]);
    }
    let repo = GitRepo::new();
    copy_tree(&base, repo.path(), None);
    repo.commit("base");
    copy_tree(&root().join(path), repo.path(), Some("git-base"));
    repo.check(Some("HEAD")).expect("run succeeds")
}

/// Copies a directory tree, skipping one top-level entry.
pub fn copy_tree(from: &Path, to: &Path, skip: Option<&str>) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if skip.is_some_and(|s| name == s) {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target, None);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A real git repository in a temporary directory.
pub struct GitRepo {
    dir: tempfile::TempDir,
}

impl GitRepo {
    pub fn new() -> GitRepo {
        let repo = GitRepo {
            dir: tempfile::tempdir().unwrap(),
        };
        repo.git(&["init", "-q"]);
        repo
    }
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    /// Runs git in the repository with a fixed identity and no signing.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_env(args, &[])
    }
    /// `git`, with `env` set: an author from the environment wins over the
    /// fixed identity.
    pub fn git_env(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(self.path())
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .envs(env.iter().copied())
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    /// Commits everything; returns the commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }
    /// `platcheck check` run from the repository's root, with `--base`.
    pub fn check(&self, base: Option<&str>) -> Result<Outcome, engine::RunError> {
        let overrides = Overrides {
            today: Some(today()),
            base: base.map(String::from),
            ..Overrides::default()
        };
        engine::run(&[PathBuf::from(".")], self.path(), &overrides)
    }
}

/// tests/report_fixtures/waived committed by Dana Reviewer on 2026-11-02:
/// the author and day the report reads from git for each waiver line.
pub fn waived_repo() -> GitRepo {
    let repo = GitRepo::new();
    copy_tree(
        &root().join("tests/report_fixtures/waived"),
        repo.path(),
        None,
    );
    repo.git(&["add", "-A"]);
    repo.git_env(
        &["commit", "-q", "-m", "waivers"],
        &[
            ("GIT_AUTHOR_NAME", "Dana Reviewer"),
            ("GIT_AUTHOR_EMAIL", "dana@example.test"),
            ("GIT_AUTHOR_DATE", "2026-11-02T10:00:00Z"),
        ],
    );
    repo
}

/// The built binary run in `dir`, colour off (the end-to-end tests' runner).
pub fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("binary runs")
}

/// stdout then stderr of a run, as text.
pub fn output_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The engine's run of `path` (a file or folder) from `dir`, as the
/// binary runs `platcheck check path` there.
pub fn run_at(dir: &Path, path: &str) -> Outcome {
    engine::run(&[PathBuf::from(path)], dir, &Overrides::default()).unwrap()
}

/// What a run says about one file (findings, then waivers), one line each:
/// compared between a run that names the file and the whole run.
/// The files a run classified (checked as something), sorted, once each.
pub fn checked_files(o: &Outcome) -> Vec<String> {
    let mut files: Vec<String> = o
        .files
        .iter()
        .enumerate()
        .filter(|(i, _)| o.classes[*i].is_some())
        .map(|(_, f)| f.display.clone())
        .collect();
    files.sort();
    files.dedup();
    files
}

pub fn about(o: &Outcome, file: &str) -> Vec<String> {
    let line = |f: &platcheck::finding::Finding| {
        let at = format!("{}:{}:{}", f.file, f.line, f.column);
        format!("{at} {} {} {}", f.severity.as_str(), f.rule, f.message)
    };
    let mut out: Vec<String> = o
        .findings
        .iter()
        .filter(|f| f.file == file)
        .map(line)
        .collect();
    out.extend(
        o.waived
            .iter()
            .filter(|w| w.finding.file == file)
            .map(|w| format!("waived {}", line(&w.finding))),
    );
    out
}
