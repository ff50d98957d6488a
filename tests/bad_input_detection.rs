//! Contracts are recognised by parsing and decoded whatever their encoding:
//! no contract turns the gate green by being written in UTF-16, flow style,
//! indented, with lone CRs or a near-miss apiVersion, and a file named on
//! the command line always gets a result line. Each case asserts the
//! finding, the exit code, and that the outside tree is unchanged.
mod common;
use common::sandbox::{Sandbox, rules, stdout};

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";
/// A contract with one unknown key: PC003, an error (exit 1) by default.
const TYPO: &str = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: t-db\n  owner: t\nspec:\n  restore_drill:\n    cadance: weekly\n";

fn utf16(text: &str, le: bool, bom: bool) -> Vec<u8> {
    let mut v = Vec::new();
    if bom {
        v.extend(if le { [0xFF, 0xFE] } else { [0xFE, 0xFF] });
    }
    for u in text.encode_utf16() {
        v.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    v
}

fn utf32(text: &str, le: bool) -> Vec<u8> {
    let mut v: Vec<u8> = if le {
        vec![0xFF, 0xFE, 0, 0]
    } else {
        vec![0, 0, 0xFE, 0xFF]
    };
    for c in text.chars() {
        v.extend(if le {
            (c as u32).to_le_bytes()
        } else {
            (c as u32).to_be_bytes()
        });
    }
    v
}

fn has(found: &[(String, String)], file: &str, rule: &str) -> bool {
    found.iter().any(|(f, r)| f == file && r == rule)
}

#[test]
fn an_unknown_key_is_an_error_with_its_did_you_mean() {
    let s = Sandbox::new(CONFIG);
    s.write("typo.yaml", TYPO);
    let o = s.run(&["check", "--format", "gcc"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(
            "error: [PC003] unknown key `cadance` in `spec.restore_drill`; did you mean `cadence`?"
        ),
        "{}",
        stdout(&o)
    );
    s.assert_outside_unchanged();
}

#[test]
fn wide_encodings_are_decoded_by_their_bom_or_refused() {
    let s = Sandbox::new(CONFIG);
    s.write("u16le.yaml", utf16(TYPO, true, true));
    s.write("u16be.yaml", utf16(TYPO, false, true));
    s.write("u32le.yaml", utf32(TYPO, true));
    s.write("u32be.yaml", utf32(TYPO, false));
    s.write(
        "bom8.yaml",
        [b"\xEF\xBB\xBF".as_slice(), TYPO.as_bytes()].concat(),
    );
    s.write("u16-nobom.yaml", utf16(TYPO, true, false));
    s.write("u16be-nobom.sql", utf16("SELECT 1;\n", false, false));
    let o = s.run(&["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let found = rules(&o);
    for f in [
        "u16le.yaml",
        "u16be.yaml",
        "u32le.yaml",
        "u32be.yaml",
        "bom8.yaml",
    ] {
        assert!(has(&found, f, "PC003"), "{f} was not checked: {found:?}");
    }
    assert!(has(&found, "u16-nobom.yaml", "PC001"), "{found:?}");
    assert!(has(&found, "u16be-nobom.sql", "PC001"), "{found:?}");
    assert!(stdout(&o).contains("looks like UTF-16LE without a byte-order mark"));
    // Named on the command line: the same, never "0 files checked".
    let o = s.run(&["check", "--format", "json", "u16-nobom.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(rules(&o), vec![("u16-nobom.yaml".into(), "PC001".into())]);
    // The same line and column as the UTF-8 original.
    let o = s.run(&["check", "--format", "gcc", "u16le.yaml", "bom8.yaml"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("PC003"))
        .map(|l| l.split_once(':').unwrap().1)
        .collect();
    assert_eq!(lines.len(), 2, "{}", stdout(&o));
    assert_eq!(lines[0], lines[1]);
    s.assert_outside_unchanged();
}

#[test]
fn contracts_are_found_by_parsing_whatever_their_layout() {
    let s = Sandbox::new(CONFIG);
    let json = r#"{"apiVersion": "platcheck/v1", "kind": "Cluster", "metadata": {"name": "j", "owner": "t"}, "spec": {"restore_drill": {"cadance": "weekly"}}}"#;
    s.write("flow.yaml", json);
    let indented: String = TYPO.lines().map(|l| format!("  {l}\n")).collect();
    s.write("indented.yaml", indented);
    s.write("lone-cr.yaml", TYPO.replace('\n', "\r"));
    s.write("crlf.yaml", TYPO.replace('\n', "\r\n"));
    s.write(
        "quoted.yaml",
        TYPO.replace("apiVersion:", "\"apiVersion\":"),
    );
    s.write("broken-flow.yaml", &json[..json.len() - 3]);
    let o = s.run(&["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let found = rules(&o);
    for f in [
        "flow.yaml",
        "indented.yaml",
        "lone-cr.yaml",
        "crlf.yaml",
        "quoted.yaml",
    ] {
        assert!(has(&found, f, "PC003"), "{f} was not checked: {found:?}");
    }
    assert!(has(&found, "broken-flow.yaml", "PC002"), "{found:?}");
    s.assert_outside_unchanged();
}

#[test]
fn a_near_miss_apiversion_or_a_kind_without_one_is_pc006() {
    let s = Sandbox::new(CONFIG);
    s.write("io.yaml", TYPO.replace("platcheck/v1", "platcheck.io/v1"));
    s.write("lower.yaml", TYPO.replace("apiVersion", "apiversion"));
    s.write("snake.yaml", TYPO.replace("apiVersion", "api_version"));
    s.write(
        "missing.yaml",
        TYPO.replace("apiVersion: platcheck/v1\n", ""),
    );
    s.write("bare-v1.yaml", TYPO.replace("platcheck/v1", "v1"));
    s.write(
        "event.yaml",
        "kind: EventBoundary\nmetadata: {name: e, owner: t}\n",
    );
    // Another tool's Cluster, in its own API group, is not ours.
    s.write(
        "cnpg.yaml",
        "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: pg}\n",
    );
    let o = s.run(&["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let found = rules(&o);
    for f in [
        "io.yaml",
        "lower.yaml",
        "snake.yaml",
        "missing.yaml",
        "bare-v1.yaml",
        "event.yaml",
    ] {
        assert!(has(&found, f, "PC006"), "{f}: {found:?}");
    }
    assert!(!found.iter().any(|(f, _)| f == "cnpg.yaml"), "{found:?}");
    s.assert_outside_unchanged();
}

#[test]
fn a_file_named_on_the_command_line_always_gets_a_result_line() {
    let s = Sandbox::new(CONFIG);
    s.write("values.yaml", "replicaCount: 2\n");
    s.write("notes.txt", "hello\n");
    s.write(
        "cnpg.yaml",
        "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: pg}\n",
    );
    for name in ["values.yaml", "notes.txt", "cnpg.yaml", "platcheck.yaml"] {
        let o = s.run(&["check", "--format", "json", name]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        assert_eq!(
            rules(&o),
            vec![(name.to_string(), "PC017".to_string())],
            "{name}"
        );
        let human = s.run(&["check", name]);
        assert!(
            stdout(&human).contains(&format!("{name}:1:1: notice [PC017]")),
            "{}",
            stdout(&human)
        );
    }
    s.assert_outside_unchanged();
}

#[test]
fn include_patterns_that_match_nothing_or_leave_the_repository_are_located() {
    let s = Sandbox::new(
        "version: 1\ntoday: 2026-11-30\ninclude:\n  - contracts/**\n  - migratons/**\n  - ../outside/**\n  - /etc/**\n",
    );
    s.write("contracts/typo.yaml", TYPO);
    s.write("migrations/v1.sql", "SELECT 1;\n");
    let o = s.run(&["check", "--format", "gcc"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("platcheck.yaml:5:5: error: [PC008] invalid platcheck.yaml: include pattern `migratons/**` matches no file in the repository"), "{out}");
    assert!(out.contains("platcheck.yaml:6:5: error: [PC008] invalid platcheck.yaml: include pattern `../outside/**` points outside the repository"), "{out}");
    assert!(out.contains("platcheck.yaml:7:5: error: [PC008] invalid platcheck.yaml: include pattern `/etc/**` points outside"), "{out}");
    assert_eq!(out.matches("[PC008]").count(), 3, "{out}");
    // Checking one directory says nothing about the others' patterns.
    let o = s.run(&["check", "--format", "gcc", "contracts"]);
    assert!(!stdout(&o).contains("migratons"), "{}", stdout(&o));
    s.assert_outside_unchanged();
}

#[test]
fn a_sibling_sync_header_naming_no_file_is_mr005_under_same_file_name() {
    let s = Sandbox::new(
        "version: 1\ntoday: 2026-11-30\nmirror_gates:\n  - name: docs\n    files: \"**/*.md\"\n    siblings: same-file-name\n",
    );
    let doc =
        std::fs::read_to_string(common::root().join("tests/fixtures/mr/MR005/bad/python/cache.md"))
            .unwrap();
    s.write("python/cache.md", &doc);
    let o = s.run(&["check", "--format", "gcc"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("python/cache.md:3:34: error: [MR005] the Sibling sync header names `go/cache.md`, but no such file exists"),
        "{}",
        stdout(&o)
    );
    // The search for the named file stops at the repository's root: one
    // above it (next to the checkout) is not found, nor read.
    let above = s.repo.parent().unwrap().join("go/cache.md");
    std::fs::create_dir_all(above.parent().unwrap()).unwrap();
    std::fs::write(&above, &doc).unwrap();
    let o = s.run(&["check", "--format", "gcc"]);
    assert!(stdout(&o).contains("[MR005]"), "{}", stdout(&o));
    s.assert_outside_unchanged();
}

#[test]
fn an_unmatched_include_after_a_dropped_huge_glob_points_at_its_own_line() {
    let huge = format!("contracts/{}", "a".repeat(5000));
    let s = Sandbox::new(&format!(
        "version: 1\ntoday: 2026-11-30\ninclude:\n  - \"{huge}\"\n  - contracts/**\n  - migratons/**\n"
    ));
    s.write("contracts/typo.yaml", TYPO);
    let o = s.run(&["check", "--format", "gcc"]);
    let out = stdout(&o);
    assert!(out.contains("platcheck.yaml:4:5: error: [PC008]"), "{out}");
    assert!(out.contains("platcheck.yaml:6:5: error: [PC008] invalid platcheck.yaml: include pattern `migratons/**` matches no file in the repository"), "{out}");
    s.assert_outside_unchanged();
}
