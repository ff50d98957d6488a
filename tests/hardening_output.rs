//! Hardening of the printers: control characters a user wrote never reach a
//! terminal or CI log raw, SARIF URIs and the step summary are escaped for
//! their readers, GitHub's annotation cap drops nothing, a write error on
//! stdout fails the run, and a printer that panics leaves the rest printed
//! with a PC000 in place of what it could not print.
#![cfg(unix)]
mod common;
use common::sandbox::{Sandbox, rules, stderr, stdout};

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";
const CLUSTER: &str = include_str!("../examples/clean/contracts/clusters/orders-db.yaml");

/// A contract whose unknown key holds ESC, BEL, a C1 CSI and a line break.
fn hostile_key() -> String {
    CLUSTER.replacen(
        "spec:\n",
        "spec:\n  \"k\\e]0;pwned\\a\\x9b31m\\nnext\": 1\n",
        1,
    )
}

#[test]
fn controls_never_reach_the_terminal_or_the_ci_log() {
    let s = Sandbox::new(CONFIG);
    s.write("contracts/a.yaml", hostile_key());
    for format in ["human", "gcc", "github"] {
        let o = s.run(&["check", "--format", format, "--color", "never"]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        let out = stdout(&o);
        let bad: Vec<char> = out
            .chars()
            .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
            .collect();
        assert!(bad.is_empty(), "{format}: raw controls {bad:?} in\n{out}");
        assert!(out.contains("\\x1b]0;pwned\\x07"), "{format}: {out}");
    }
    // gcc stays one line per finding.
    let o = s.run(&["check", "--format", "gcc"]);
    assert!(
        stdout(&o)
            .lines()
            .all(|l| l.starts_with("contracts/a.yaml:")),
        "{}",
        stdout(&o)
    );
    s.assert_outside_unchanged();
}

#[test]
fn sarif_uris_are_percent_encoded_and_backslashes_kept() {
    let s = Sandbox::new(CONFIG);
    let typo = CLUSTER.replacen("spec:\n", "spec:\n  unknown_key: 1\n", 1);
    for name in [
        "contracts/with space.yaml",
        "contracts/100%.yaml",
        "contracts/café.yaml",
        "contracts/a\\b.yaml",
    ] {
        s.write(name, &typo);
    }
    let o = s.run(&["check", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut uris: Vec<String> = doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    uris.sort();
    uris.dedup();
    assert_eq!(
        uris,
        [
            "contracts/100%25.yaml",
            "contracts/a%5Cb.yaml",
            "contracts/caf%C3%A9.yaml",
            "contracts/with%20space.yaml"
        ]
    );
    // Other formats name the file as it is: the backslash is not a separator.
    let found = rules(&s.run(&["check", "--format", "json"]));
    assert!(
        found.iter().any(|(f, _)| f == "contracts/a\\b.yaml"),
        "{found:?}"
    );
    s.assert_outside_unchanged();
}

#[test]
fn the_step_summary_escapes_file_names_and_messages() {
    let s = Sandbox::new(CONFIG);
    let name = "contracts/x\n## injected <img src=x onerror=alert(1)> | col.yaml";
    s.write(name, hostile_key());
    let summary = s.repo.join("summary.md");
    let o = s.run_env(
        &["check", "--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(!md.contains("<img"), "{md}");
    assert!(!md.contains("\n## injected"), "{md}");
    assert!(
        md.contains("&lt;img src=x onerror=alert(1)&gt; &#124; col.yaml"),
        "{md}"
    );
    for row in md.lines().filter(|l| l.starts_with("| <code>")) {
        assert_eq!(
            row.matches(" | ").count(),
            2,
            "a row has three cells: {row}"
        );
    }
    assert!(!md.chars().any(|c| c.is_control() && c != '\n'), "{md}");
    s.assert_outside_unchanged();
}

#[test]
fn the_step_summary_is_appended_once_and_never_through_a_link_or_to_a_fifo() {
    let s = Sandbox::new(CONFIG);
    s.write("contracts/![x](https:__t_p.png) *b*.yaml", hostile_key());
    let summary = s.repo.join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let env = |p: &std::path::Path| vec![("GITHUB_STEP_SUMMARY", p.to_str().unwrap().to_string())];
    let run = |p: &std::path::Path| {
        let e = env(p);
        let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
        s.run_env(&["check", "--format", "github"], &e)
    };
    let o = run(&summary);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let md = std::fs::read_to_string(&summary).unwrap();
    // The earlier step's text stays first; ours follows in one block.
    assert!(md.starts_with("earlier step\n## platcheck\n"), "{md}");
    assert_eq!(md.matches("## platcheck").count(), 1);
    // Markdown in a file name is inert: no image, no emphasis.
    assert!(
        md.contains("\\!\\[x\\](https:\\_\\_t\\_p.png) \\*b\\*.yaml"),
        "{md}"
    );

    // A link is refused, its target untouched.
    let target = s.outside.join("secret.env");
    let link = s.repo.join("link.md");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(&link);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("it is a symlink"), "{}", stderr(&o));

    // A FIFO nobody reads neither hangs the run nor is written.
    let fifo = s.repo.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let o = run(&fifo);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    s.assert_outside_unchanged();
}

#[test]
fn github_overflow_notes_fit_inside_the_per_level_cap() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args([
            "check",
            "examples/violations",
            "--format",
            "github",
            "--today",
            "2026-11-30",
        ])
        .current_dir(common::root())
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    for level in ["error", "warning", "notice"] {
        let n = out
            .lines()
            .filter(|l| l.starts_with(&format!("::{level} ")))
            .count();
        assert!(
            n <= 10,
            "{n} ::{level} lines: GitHub would drop {}",
            n.saturating_sub(10)
        );
        assert!(n > 0, "examples/violations has {level} findings");
    }
    assert!(out.contains("::notice title=platcheck::"), "{out}");
}

#[test]
fn a_write_error_on_stdout_exits_2() {
    let s = Sandbox::new(CONFIG);
    s.write("contracts/a.yaml", CLUSTER);
    for format in ["sarif", "human", "json"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_platcheck"))
            .args(["check", "--format", format])
            .current_dir(&s.repo)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{format}");
        assert!(
            stderr(&o).contains("cannot write the output"),
            "{}",
            stderr(&o)
        );
    }
    s.assert_outside_unchanged();
}

#[test]
fn a_finding_past_column_65535_is_printed_not_a_crash() {
    let s = Sandbox::new(CONFIG);
    let sql = format!(
        "SELECT 1;{}ALTER TABLE t ADD COLUMN c int NOT NULL;\n",
        " ".repeat(70_000)
    );
    s.write("migrations/V1__wide.sql", sql);
    let o = s.run(&["check", "--color", "never"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("migrations/V1__wide.sql:1:70010: error [MG043]"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(out.len() < 20_000, "the 70,000-column line is not printed");
    assert!(!out.contains("PC000"));
    s.assert_outside_unchanged();
}

#[test]
fn a_panicking_printer_becomes_pc000_and_the_rest_is_printed() {
    let s = Sandbox::new(CONFIG);
    let typo = CLUSTER.replacen("spec:\n", "spec:\n  unknown_key: 1\n", 1);
    s.write("contracts/a.yaml", &typo);
    s.write("contracts/b.yaml", typo.replace("orders-db", "orders-db-b"));
    for format in ["human", "json", "sarif", "gcc", "github", "junit", "gitlab"] {
        let o = s.run_env(
            &["check", "--format", format, "--color", "never"],
            &[("PLATCHECK_INJECT_PANIC", "printer:b.yaml")],
        );
        assert_eq!(
            o.status.code(),
            Some(2),
            "{format}: the result is incomplete"
        );
        let out = stdout(&o);
        assert!(out.contains("PC000"), "{format}: {out}");
        assert!(
            out.contains("contracts/a.yaml") && out.contains("PC003"),
            "{format}: {out}"
        );
    }
    s.assert_outside_unchanged();
}

#[test]
fn a_panicking_rule_is_pc000_even_with_no_file_to_point_at() {
    let s = Sandbox::new(CONFIG);
    // No config and no input: nothing but the run to name.
    std::fs::remove_file(s.repo.join("platcheck.yaml")).unwrap();
    let o = s.run_env(
        &["check", "--format", "json"],
        &[("PLATCHECK_INJECT_PANIC", "rule:PC009")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(rules(&o), vec![("<run>".to_string(), "PC000".to_string())]);
    s.write(
        "contracts/a.yaml",
        CLUSTER.replacen("spec:\n", "spec:\n  unknown_key: 1\n", 1),
    );
    let o = s.run_env(
        &["check", "--format", "json"],
        &[("PLATCHECK_INJECT_PANIC", "rule:PC009")],
    );
    assert_eq!(o.status.code(), Some(2));
    let found = rules(&o);
    assert!(found.iter().any(|(_, r)| r == "PC000"), "{found:?}");
    assert!(
        found.contains(&("contracts/a.yaml".into(), "PC003".into())),
        "{found:?}"
    );
}

/// A 20 KB value in a contract is quoted by its head and its size in the
/// message of every format (one line each), not repeated whole; the JSON
/// output still carries the finding with its location.
#[test]
fn a_huge_value_is_quoted_by_its_head_and_size() {
    let s = Sandbox::new(CONFIG);
    let huge = "x".repeat(20_000);
    let line = CLUSTER
        .lines()
        .find(|l| l.trim_start().starts_with("product:"))
        .expect("the example names its product");
    s.write(
        "contracts/a.yaml",
        CLUSTER.replacen(line, &format!("    product: {huge}"), 1),
    );
    for format in ["human", "gcc", "github", "json"] {
        let o = s.run(&["check", "--format", format, "--color", "never"]);
        assert_eq!(o.status.code(), Some(1), "{format}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("… [20000 bytes]"), "{format}: {out}");
        assert!(!out.contains(&"x".repeat(300)), "{format}: quoted whole");
    }
    s.assert_outside_unchanged();
}
