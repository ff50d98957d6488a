//! Hardening of the commands around `check`: `init` through a dangling
//! symlink says so (and a refused init writes nothing), `platcheck gate`
//! quotes a hostile token by its head, and `--no-inline-suppressions` says
//! which suppressions it kept from hiding a finding.
#![cfg(unix)]
mod common;
use common::sandbox::{Sandbox, stderr, stdout};
use serde_json::Value;

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";

#[test]
fn init_through_a_dangling_symlink_names_the_link_and_where_it_points() {
    let s = Sandbox::new(CONFIG);
    let gone = s.outside.join("gone");
    s.link("d", &gone);
    s.link("e", &gone);
    for (arg, link) in [("d", "d"), ("e/sub", "e")] {
        let o = s.run(&["init", arg]);
        assert_eq!(o.status.code(), Some(2), "{arg}: {}", stdout(&o));
        let err = stderr(&o);
        let said = format!(
            "{} is a symlink to {}, which does not exist",
            s.repo.join(link).display(),
            gone.display()
        );
        assert!(err.contains(&said), "{arg}: {err}");
        assert!(!err.contains("File exists"), "{arg}: {err}");
    }
    s.write("f", "not a directory\n");
    let o = s.run(&["init", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("f exists and is not a directory"),
        "{}",
        stderr(&o)
    );
    assert!(!gone.exists());
    s.assert_outside_unchanged();
}

#[test]
fn a_refused_init_writes_nothing() {
    let s = Sandbox::new(CONFIG);
    // `docs` comes after the config, the contracts and the schema in the
    // plan: the refusal must come before any of them is written.
    s.link("r/docs", &s.outside.join("gone"));
    let o = s.run(&["init", "r"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("it is a symlink"), "{}", stderr(&o));
    let left: Vec<String> = std::fs::read_dir(s.repo.join("r"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["docs"]);
    s.assert_outside_unchanged();
}

#[test]
fn gate_quotes_a_hostile_token_by_its_head_and_size() {
    let s = Sandbox::new(CONFIG);
    let token = "x".repeat(100_000);
    // The bullet lists a 100 KB token the command does not grep: MR003.
    let doc = format!(
        "# P (Python)\n\n## A\n\nasyncio here\n\n## Python-specific implementation patterns\n\n### Mirrored-section grep gate\n\n- **Runtime** — `asyncio`.\n- **Huge** — `{token}`.\n\nRun:\n\n```\nawk '/^## Python-specific implementation patterns/{{exit}} 1' d.md | grep -nE '(asyncio)'\n```\n"
    );
    s.write("d.md", &doc);
    let o = s.run(&["gate", "d.md"]);
    let err = stderr(&o);
    assert_eq!(stdout(&o), "5:asyncio here\n", "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("MR003"), "{err}");
    assert!(err.contains("… [100000 bytes]"), "{err}");
    assert!(err.len() < 2_000, "{} bytes on stderr", err.len());
}

/// A contract with two inline suppressions that match a finding each.
const SUPPRESSED: &str = include_str!("fixtures/pc/PC010/good.yaml");

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn no_inline_suppressions_says_what_it_turned_off() {
    let s = Sandbox::new(CONFIG);
    s.write("good.yaml", SUPPRESSED);
    let normal = json(&s.run(&["check", "--format", "json"]));
    assert_eq!(normal["summary"]["suppressed"], 2, "{normal}");
    // The JSON output has `notes` only when there are some.
    assert!(normal.get("notes").is_none(), "{normal}");

    let o = s.run(&["check", "--format", "json", "--no-inline-suppressions"]);
    let audit = json(&o);
    assert_eq!(o.status.code(), Some(1), "{audit}");
    let notes: Vec<&str> = audit["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "--no-inline-suppressions: 2 inline suppressions not applied (good.yaml:9, good.yaml:11); the 2 findings they would hide are reported (`platcheck suppressions --no-inline-suppressions` lists them)"
        ],
        "{audit}"
    );
    let human = stdout(&s.run(&["check", "--no-inline-suppressions"]));
    assert!(
        human.contains("note: --no-inline-suppressions: 2 inline suppressions not applied"),
        "{human}"
    );
    let listed = stdout(&s.run(&["suppressions", "--no-inline-suppressions"]));
    assert_eq!(listed.matches("[not-applied]").count(), 2, "{listed}");
    assert!(!listed.contains("[unused]"), "{listed}");
    let listed = stdout(&s.run(&["suppressions"]));
    assert_eq!(listed.matches("[matched]").count(), 2, "{listed}");
}

#[test]
fn no_inline_suppressions_notes_nothing_when_nothing_was_hidden() {
    let s = Sandbox::new(CONFIG);
    s.write(
        "m.sql",
        "-- platcheck-ignore MG001: not this line's rule\nSELECT 1;\n",
    );
    let o = s.run(&["check", "--format", "json", "--no-inline-suppressions"]);
    let doc = json(&o);
    assert!(doc.get("notes").is_none(), "{doc}");
    let listed = stdout(&s.run(&["suppressions", "--no-inline-suppressions"]));
    assert!(listed.contains("[unused]"), "{listed}");
}

/// Found by the `config_baseline` fuzz run: a named directory the config's
/// `include` leaves out was "0 files checked", exit 0, no finding. It gets
/// a PC017 line now, as a named file that is not checked does; a named
/// directory with a checked file gets none.
#[test]
fn a_named_directory_the_include_leaves_out_is_reported_not_silently_empty() {
    let s = Sandbox::new("version: 1\ntoday: 2026-11-30\ninclude: [\"contracts/**\"]\n");
    s.write("migrations/V1__t.sql", "CREATE TABLE t (id int);\n");
    s.write(
        "contracts/c.yaml",
        "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: c\n",
    );
    let o = s.run(&["check", "--format", "json", "migrations"]);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let pc017: Vec<&Value> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "PC017")
        .collect();
    assert_eq!(pc017.len(), 1, "{}", stdout(&o));
    assert_eq!(pc017[0]["file"], "migrations");
    assert!(
        pc017[0]["message"]
            .as_str()
            .unwrap()
            .contains("include/exclude leave out every one"),
        "{}",
        stdout(&o)
    );
    let o = s.run(&["check", "--format", "json", "contracts"]);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        out["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule"] != "PC017"),
        "{}",
        stdout(&o)
    );
    s.assert_outside_unchanged();
}
