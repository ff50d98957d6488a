//! Every `console` block of README.md is run and its output compared, so
//! what the README shows (counts like "227 errors" included) cannot drift.
//!
//! A block is one shell session in a fresh temporary directory that holds
//! `examples` (a link to the repository's examples), with the built
//! platcheck first on PATH, `COLUMNS=100` and `NO_COLOR=1`. Lines starting
//! with `$ ` are commands (run in order by one bash, so `cd` carries over);
//! the lines after one are its expected output (stdout and stderr), where a
//! line `…` stands for any number of lines. An expected `[exit N]` line
//! checks the command's exit status.
mod common;
use std::process::Command;

struct Step {
    command: String,
    expected: Vec<String>,
}

fn blocks(readme: &str) -> Vec<(usize, Vec<Step>)> {
    let mut out = Vec::new();
    let mut lines = readme.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if line.trim() != "```console" {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        for (_, l) in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            match l.strip_prefix("$ ") {
                Some(cmd) => steps.push(Step {
                    command: cmd.to_string(),
                    expected: Vec::new(),
                }),
                None => steps
                    .last_mut()
                    .unwrap_or_else(|| {
                        panic!("README.md:{}: output before any `$ ` command", n + 1)
                    })
                    .expected
                    .push(l.to_string()),
            }
        }
        out.push((n + 1, steps));
    }
    out
}

/// Whether `actual` matches `expected`, where `…` matches any lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "…" => (0..=actual.len()).any(|i| matches(rest, &actual[i..])),
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a.trim_end() == e.trim_end() && matches(rest, more)),
    }
}

fn run_block(line: usize, steps: &[Step]) {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(common::root().join("examples"), dir.path().join("examples"))
        .unwrap();
    let marker = "@@platcheck-readme-step@@";
    let mut script = String::new();
    for s in steps {
        script.push_str(&format!(
            "echo '{marker}'\n{} 2>&1\necho \"{marker} $?\"\n",
            s.command
        ));
    }
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_platcheck"))
        .parent()
        .unwrap();
    let o = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .env(
            "PATH",
            format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap()),
        )
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "readme")
        .env("GIT_AUTHOR_EMAIL", "readme@localhost")
        .env("GIT_COMMITTER_NAME", "readme")
        .env("GIT_COMMITTER_EMAIL", "readme@localhost")
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let start = format!("{marker}\n");
    let mut parts = text.split(&start).skip(1);
    for s in steps {
        let part = parts.next().unwrap_or_default();
        let (body, status) = part
            .rsplit_once(marker)
            .unwrap_or_else(|| panic!("README.md:{line}: `{}` printed no status", s.command));
        let status = status.trim();
        let actual: Vec<&str> = body.lines().collect();
        let mut expected = s.expected.clone();
        if let Some(code) = expected.last().and_then(|l| l.strip_prefix("[exit ")) {
            let code = code.trim_end_matches(']').to_string();
            assert_eq!(
                status, code,
                "README.md:{line}: `{}` exit status\n{body}",
                s.command
            );
            expected.pop();
        } else {
            assert_eq!(
                status, "0",
                "README.md:{line}: `{}` failed:\n{body}",
                s.command
            );
        }
        assert!(
            matches(&expected, &actual),
            "README.md:{line}: `{}` printed\n{body}\nwhich does not match\n{}",
            s.command,
            expected.join("\n")
        );
    }
}

#[test]
fn every_console_block_of_the_readme_is_what_platcheck_prints() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let all = blocks(&readme);
    assert!(all.len() >= 3, "README.md has {} console blocks", all.len());
    for (line, steps) in &all {
        run_block(*line, steps);
    }
}

#[test]
fn the_matcher_takes_ellipses_for_any_lines() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "…", "z"]), &["a", "b", "c", "z"]));
    assert!(matches(&e(&["a", "…", "z"]), &["a", "z"]));
    assert!(!matches(&e(&["a", "z"]), &["a", "b", "z"]));
    assert!(!matches(&e(&["a", "…"]), &["b"]));
}
