//! Hardening of what platcheck reads and writes: nothing outside the
//! repository is read through a link or a config path, no write goes
//! through a link or replaces a file that is not platcheck's, and special
//! files never hang or grow a run. Each case asserts the finding or the
//! refusal, the exit code, and that the outside tree is unchanged.
#![cfg(unix)]
mod common;
use common::sandbox::{Sandbox, rules, stderr, stdout};

const CONFIG: &str = "version: 1\ntoday: 2026-11-30\n";
// Clean but for warnings about its runbooks, which the sandbox lacks.
const CLUSTER: &str = include_str!("../examples/clean/contracts/clusters/orders-db.yaml");

#[test]
fn a_symlinked_input_leading_out_of_the_repository_is_pc001_and_not_read() {
    let s = Sandbox::new(CONFIG);
    s.link("migrations/leak.sql", &s.outside.join("secret.env"));
    s.link("contracts/leak.yaml", &s.outside.join("secret.env"));
    s.link("docs", &s.outside);
    s.write("ok.sql", "SELECT 1;\n");
    let o = s.run(&["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let found = rules(&o);
    for f in ["migrations/leak.sql", "contracts/leak.yaml", "docs"] {
        assert!(
            found.contains(&(f.into(), "PC001".into())),
            "{f}: {found:?}"
        );
    }
    assert!(stdout(&o).contains("outside the repository"));
    // Named on the command line, the link is refused the same way.
    let o = s.run(&["check", "--format", "json", "migrations/leak.sql"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        rules(&o),
        vec![("migrations/leak.sql".into(), "PC001".into())]
    );
    s.assert_outside_unchanged();
}

#[test]
fn follow_external_links_reads_through_them_when_asked() {
    let mut s = Sandbox::new(CONFIG);
    let v1 = s.plant_outside("v1.sql", "SELECT 1;\n");
    s.link("migrations/v1.sql", &v1);
    let o = s.run(&["check", "--format", "json", "--follow-external-links"]);
    assert!(
        !rules(&o).iter().any(|(_, r)| r == "PC001"),
        "{}",
        stdout(&o)
    );
    let o = s.run(&["check", "--follow-external-links"]);
    assert!(stdout(&o).contains("1 file checked"), "{}", stdout(&o));
    s.assert_outside_unchanged();
}

#[test]
fn an_absolute_schema_path_outside_the_repository_is_refused() {
    let s = Sandbox::new(CONFIG);
    let schema = s.outside.join("schema.json");
    let events = "examples/clean/contracts/events/merchant-webhooks.yaml";
    let text = std::fs::read_to_string(common::root().join(events)).unwrap();
    let planted = text.replace(
        "path: schemas/merchant_order_status.schema.json",
        &format!("path: {}", schema.display()),
    );
    assert_ne!(planted, text);
    s.write("events/created.yaml", planted);
    let o = s.run(&["check", "--format", "json"]);
    let found = rules(&o);
    assert!(
        found
            .iter()
            .any(|(f, r)| r == "PC001" && f.ends_with("schema.json")),
        "{found:?}"
    );
    assert_eq!(o.status.code(), Some(1));
    s.assert_outside_unchanged();
}

#[test]
fn output_never_writes_through_a_symlink() {
    let s = Sandbox::new(CONFIG);
    s.write("a.yaml", CLUSTER);
    s.link("platcheck.sarif", &s.outside.join("secret.env"));
    s.link("dangling.json", &s.outside.join("created-by-platcheck"));
    let o = s.run(&["check", "--output", "sarif=platcheck.sarif"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a symlink"), "{}", stderr(&o));
    let o = s.run(&["check", "--format", "json", "--output", "dangling.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!s.outside.join("created-by-platcheck").exists());
    s.assert_outside_unchanged();
}

#[test]
fn output_never_replaces_the_config_or_an_input() {
    let s = Sandbox::new(CONFIG);
    s.write("a.yaml", CLUSTER);
    // The file name an attacker plants for `paths: '*'` to expand into.
    let o = s.run(&["check", "--output=gcc=platcheck.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("platcheck.yaml"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(s.repo.join("platcheck.yaml")).unwrap(),
        CONFIG
    );
    let o = s.run(&["check", "--output", "json=a.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(s.repo.join("a.yaml")).unwrap(),
        CLUSTER
    );
    // An ordinary output is written, and replaced on the next run.
    for _ in 0..2 {
        let o = s.run(&["check", "--output", "sarif=out.sarif"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let sarif: serde_json::Value =
            serde_json::from_slice(&std::fs::read(s.repo.join("out.sarif")).unwrap()).unwrap();
        assert_eq!(sarif["version"], "2.1.0");
    }
    let names: Vec<String> = std::fs::read_dir(&s.repo)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".platcheck-write")),
        "{names:?}"
    );
    s.assert_outside_unchanged();
}

#[test]
fn baseline_write_replaces_only_a_baseline() {
    let s = Sandbox::new(CONFIG);
    s.write("a.yaml", CLUSTER.replace("owner:", "ownerr:"));
    let o = s.run(&["baseline", "write", "platcheck.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(s.repo.join("platcheck.yaml")).unwrap(),
        CONFIG
    );
    s.write("notes.json", "{\"mine\": true}\n");
    let o = s.run(&["baseline", "write", "notes.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a platcheck baseline"),
        "{}",
        stderr(&o)
    );
    s.link("linked.json", &s.outside.join("secret.env"));
    let o = s.run(&["baseline", "write", "linked.json"]);
    assert_eq!(o.status.code(), Some(2));
    for _ in 0..2 {
        let o = s.run(&["baseline", "write", "b.json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let o = s.run(&["check", "--baseline", "b.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    s.assert_outside_unchanged();
}

#[test]
fn init_never_writes_through_a_link() {
    let s = Sandbox::new(CONFIG);
    std::fs::remove_file(s.repo.join("platcheck.yaml")).unwrap();
    s.link("platcheck.yaml", &s.outside.join("planted.yaml"));
    let o = s.run(&["init"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!s.outside.join("planted.yaml").exists());
    std::fs::remove_file(s.repo.join("platcheck.yaml")).unwrap();
    s.link("contracts", &s.outside);
    let o = s.run(&["init"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("symlink"), "{}", stderr(&o));
    s.assert_outside_unchanged();
}

#[test]
fn special_files_as_baseline_or_recording_neither_hang_nor_grow() {
    let s = Sandbox::new(CONFIG);
    s.write("a.yaml", CLUSTER);
    let fifo = s.repo.join("fifo.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for baseline in ["fifo.json", "/dev/zero"] {
        let o = s.run(&["check", "--baseline", baseline]);
        assert_eq!(o.status.code(), Some(2), "{baseline}");
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    s.write("platcheck.yaml", format!("{CONFIG}baseline: /dev/zero\n"));
    let o = s.run(&["check"]);
    assert_eq!(o.status.code(), Some(2));
    s.write("v1.sql", "SELECT 1;\n");
    let o = s.run(&["verify", "--observed", "fifo.json", "v1.sql"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    s.assert_outside_unchanged();
}

#[test]
fn a_link_out_that_include_would_not_select_is_left_alone() {
    let s = Sandbox::new("version: 1\ntoday: 2026-11-30\ninclude: [contracts/**]\n");
    s.write("contracts/a.yaml", CLUSTER);
    s.link("contracts/leak.yaml", &s.outside.join("secret.env"));
    s.link("vendor/leak.sql", &s.outside.join("secret.env"));
    s.link("vendor/tree", &s.outside);
    let o = s.run(&["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let found: Vec<_> = rules(&o)
        .into_iter()
        .filter(|(_, r)| r == "PC001")
        .collect();
    assert_eq!(
        found,
        vec![("contracts/leak.yaml".to_string(), "PC001".to_string())]
    );
    s.assert_outside_unchanged();
}

#[test]
fn runbook_paths_that_leave_the_repository_are_reported_not_looked_up() {
    let s = Sandbox::new(CONFIG);
    // Each names a file that exists, outside: before, the lookup followed
    // them, so the existing ones passed and a contract could probe the disk.
    s.link("docs/out-link.md", &s.outside.join("secret.env"));
    s.write("docs/runbooks/cluster-scale-out.md", "# Scale out\n");
    let cluster = CLUSTER
        .replace("docs/runbooks/cluster-scale-up.md", "../outside/secret.env")
        .replace("docs/runbooks/cluster-decommission.md", "docs/out-link.md");
    s.write("contracts/a.yaml", &cluster);
    let o = s.run(&["check", "--format", "json", "contracts"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let cl071: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "CL071")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(cl071.len(), 2, "{cl071:?}");
    assert!(
        cl071.iter().all(|m| m.contains("outside the repository")),
        "{cl071:?}"
    );
    assert!(
        cl071[0].contains("scale_up points at ../outside/secret.env"),
        "{cl071:?}"
    );
    assert!(
        cl071[1].contains("decommission points at docs/out-link.md"),
        "{cl071:?}"
    );
    // The in-repository runbook that exists raises nothing.
    assert!(!cl071.iter().any(|m| m.contains("scale_out")));
    // CL071 is a warning (like a runbook that is missing), below the
    // default fail_on.
    assert_eq!(o.status.code(), Some(0));
    s.assert_outside_unchanged();
}

#[test]
fn referenced_plans_that_leave_the_repository_are_reported_not_looked_up() {
    let s = Sandbox::new(CONFIG);
    s.link("docs/out-link.md", &s.outside.join("secret.env"));
    s.write("docs/runbooks/retraction.md", "# Retraction\n");
    let boundary = include_str!("fixtures/ev/EV140/bad.yaml")
        .replace("docs/runbooks/repartition.md", "../outside/secret.env")
        .replace("tools/replay", "docs/out-link.md");
    s.write("contracts/b.yaml", &boundary);
    let o = s.run(&["check", "--format", "json", "contracts"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ev140: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "EV140")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(ev140.len(), 2, "{ev140:?}");
    assert!(
        ev140.iter().all(|m| m.contains("outside the repository")),
        "{ev140:?}"
    );
    assert!(
        ev140
            .iter()
            .any(|m| m.contains("points at ../outside/secret.env")),
        "{ev140:?}"
    );
    assert!(
        ev140
            .iter()
            .any(|m| m.contains("points at docs/out-link.md")),
        "{ev140:?}"
    );
    // The in-repository document that exists raises nothing.
    assert!(!ev140.iter().any(|m| m.contains("retraction")), "{ev140:?}");
    s.assert_outside_unchanged();
}
