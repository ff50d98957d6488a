//! Command-line conventions: global flags before or after the command, the
//! default command, unknown commands, completions, the man page and the
//! machine-readable rule list.
mod common;
use std::process::{Command, Output};

fn platcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .output()
        .expect("binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn global_flags_go_before_or_after_the_command() {
    let after = platcheck(&[
        "check",
        "examples/violations",
        "--format",
        "json",
        "--fail-on",
        "never",
    ]);
    let before = platcheck(&[
        "--format",
        "json",
        "--fail-on=never",
        "check",
        "examples/violations",
    ]);
    let implicit = platcheck(&[
        "--format",
        "json",
        "--fail-on",
        "never",
        "examples/violations",
    ]);
    assert_eq!(after.status.code(), Some(0), "{}", err(&after));
    assert!(out(&after).starts_with("{"), "{}", out(&after));
    assert_eq!(out(&after), out(&before));
    assert_eq!(out(&after), out(&implicit));
    // A command's own flag first, no command: still `check`.
    let flag_first = platcheck(&["--no-inline-suppressions", "--quiet", "examples/clean"]);
    assert_eq!(flag_first.status.code(), Some(0), "{}", err(&flag_first));
}

#[test]
fn an_unknown_command_is_a_usage_error_with_a_suggestion() {
    let o = platcheck(&["chek", "examples/clean"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("unknown command `chek`; did you mean `check`?"),
        "{}",
        err(&o)
    );
    assert!(out(&o).is_empty());
    let o = platcheck(&["--color", "never", "raport"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("did you mean `report`?"), "{}", err(&o));
    // A path that exists is checked, even when it reads like a word.
    let o = platcheck(&["examples"]);
    assert_ne!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn completions_for_every_shell_and_a_man_page() {
    for (shell, marker) in [
        ("bash", "_platcheck()"),
        ("zsh", "#compdef platcheck"),
        ("fish", "complete -c platcheck"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = platcheck(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", err(&o));
        assert!(out(&o).contains(marker), "{shell}: {}", out(&o));
        assert!(
            out(&o).contains("baseline"),
            "{shell} completes the commands"
        );
    }
    let man = platcheck(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let page = out(&man);
    assert!(
        page.starts_with(".ie") && page.contains(".TH platcheck 1"),
        "{page}"
    );
    assert!(page.contains("completions"), "{page}");
}

#[test]
fn rules_as_json_carry_the_catalogue() {
    let o = platcheck(&["rules", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules = v.as_array().unwrap();
    assert_eq!(rules.len(), platcheck::RuleId::ALL.len());
    let mg001 = rules.iter().find(|r| r["id"] == "MG001").unwrap();
    assert_eq!(mg001["name"], "create-index-without-concurrently");
    assert_eq!(mg001["family"], "MG");
    assert_eq!(mg001["severity"], "error");
    assert!(
        mg001["url"]
            .as_str()
            .unwrap()
            .ends_with("/rules/mg/MG001.md")
    );
}

#[test]
fn a_flag_the_command_does_nothing_with_is_a_usage_error() {
    // (arguments, what stderr must say): every case exits 2 before any check.
    let cases: &[(&[&str], &str)] = &[
        (
            &["gate", "--probe", "examples/clean"],
            "unexpected argument '--probe'",
        ),
        (
            &["gate", "--target", "db=postgres://h/d", "examples/clean"],
            "unexpected argument '--target'",
        ),
        (
            &["gate", "--baseline", "b.json", "examples/clean"],
            "unexpected argument '--baseline'",
        ),
        (
            &["suppressions", "--probe", "examples/clean"],
            "unexpected argument '--probe'",
        ),
        (
            &["suppressions", "--output", "x.txt", "examples/clean"],
            "unexpected argument '--output'",
        ),
        (
            &["fix", "--probe", "examples/clean"],
            "--probe does nothing in `platcheck fix`; it belongs to `platcheck probe` or `check --probe`",
        ),
        (
            &["fix", "--target", "db=postgres://h/d", "examples/clean"],
            "--target does nothing in `platcheck fix`",
        ),
        (
            &["probe", "--diff", "examples/clean"],
            "--diff does nothing in `platcheck probe`",
        ),
        (
            &["probe", "--base", "main", "examples/clean"],
            "--base does nothing in `platcheck probe`",
        ),
        (
            &["check", "--unsafe-fixes", "examples/clean"],
            "--unsafe-fixes does nothing in `platcheck check`; it belongs to `fix`, or `check` with --fix or --diff",
        ),
        (
            &["check", "--target", "db=postgres://h/d", "examples/clean"],
            "--target needs `platcheck probe` or `check --probe`",
        ),
    ];
    for (args, says) in cases {
        let o = platcheck(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
        assert!(out(&o).is_empty(), "{args:?} printed {}", out(&o));
    }
    // Where they do something, they stay accepted; help lists only those.
    let o = platcheck(&["suppressions", "--no-inline-suppressions", "examples/clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let help = out(&platcheck(&["fix", "--help"]));
    assert!(
        !help.contains("--probe") && !help.contains("--target"),
        "{help}"
    );
    assert!(help.contains("--unsafe-fixes"), "{help}");
    let help = out(&platcheck(&["probe", "--help"]));
    assert!(
        !help.contains("--diff") && !help.contains("--base "),
        "{help}"
    );
    assert!(help.contains("--target"), "{help}");
    let help = out(&platcheck(&["gate", "--help"]));
    assert!(
        !help.contains("--baseline") && !help.contains("--probe"),
        "{help}"
    );
}
