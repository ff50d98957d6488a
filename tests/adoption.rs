//! A new user's path, end to end with the built binary: an empty directory
//! -> `platcheck init` -> a green `check` -> a CI config (the pre-commit
//! hook) that passes; and an existing repository adopted through
//! `init --baseline`, after which only new migrations are judged.
mod common;
#[path = "support/precommit.rs"]
mod precommit;
#[path = "support/pty.rs"]
mod pty;
use common::GitRepo;
use std::path::Path;
use std::process::Command;

use common::{output_text as text, run_in as platcheck};

#[test]
fn empty_directory_to_green_ci() {
    let repo = GitRepo::new();
    let init = platcheck(repo.path(), &["init"]);
    assert_eq!(init.status.code(), Some(0), "{}", text(&init));
    // Dates come from today: the contract is fresh whatever the date.
    let today = platcheck::settings::system_today().to_string();
    let cluster =
        std::fs::read_to_string(repo.path().join("contracts/clusters/example-db.yaml")).unwrap();
    assert!(
        cluster.contains(&format!("last_review: {today}")),
        "{cluster}"
    );
    // Runbooks are real files, not the contract itself.
    assert!(!cluster.contains("runbook: contracts/"), "{cluster}");
    let runbook =
        std::fs::read_to_string(repo.path().join("docs/runbooks/example-db/scale-up.md")).unwrap();
    assert!(
        runbook.starts_with("<!-- TODO(platcheck init)"),
        "{runbook}"
    );

    let check = platcheck(repo.path(), &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(text(&check).contains(": 0 errors, 0 warnings, 0 notices"));

    // The launch report does not take a placeholder for a runbook.
    let report = text(&platcheck(repo.path(), &["report"]));
    assert!(
        report.contains("missing evidence: `lifecycle.runbooks.scale_up` (a placeholder runbook"),
        "{report}"
    );

    // CI: the pre-commit hook, on every file of the fresh repository.
    repo.commit("platcheck init");
    let t = precommit::tools();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_platcheck")).parent().unwrap();
    let home = tempfile::tempdir().unwrap();
    let hook = Command::new(&t.pre_commit)
        .args(["try-repo"])
        .arg(common::root())
        .args(["platcheck-system", "--all-files"])
        .current_dir(repo.path())
        .env(
            "PATH",
            format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap()),
        )
        .env("PRE_COMMIT_HOME", home.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(hook.status.success(), "{}", text(&hook));
}

const OLD: &str = "CREATE TABLE accounts (id bigint PRIMARY KEY, email text);\n";
const RISKY: &str = "CREATE INDEX idx_accounts_email ON accounts (email);\n";

#[test]
fn an_existing_repository_is_adopted_through_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let w = |rel: &str, t: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    };
    w("db/migration/V1__accounts.sql", OLD);
    w("db/migration/V2__accounts_email.sql", RISKY);
    let init = platcheck(dir.path(), &["init", "--baseline"]);
    let out = text(&init);
    assert_eq!(init.status.code(), Some(0), "{out}");
    assert!(
        out.contains("migrations: db/migration (detected, tool flyway)"),
        "{out}"
    );
    let cluster =
        std::fs::read_to_string(dir.path().join("contracts/clusters/example-db.yaml")).unwrap();
    assert!(
        cluster.contains("path: db/migration\n    tool: flyway\n"),
        "{cluster}"
    );
    let config = std::fs::read_to_string(dir.path().join("platcheck.yaml")).unwrap();
    assert!(
        config.contains("baseline: .platcheck-baseline.json"),
        "{config}"
    );
    assert!(dir.path().join(".platcheck-baseline.json").is_file());

    // The existing debt is recorded: the next run is clean.
    let check = platcheck(dir.path(), &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    // A new migration is judged: undeclared size fails closed.
    w(
        "db/migration/V3__accounts_id.sql",
        "CREATE INDEX idx_accounts_id2 ON accounts (id);\n",
    );
    let check = platcheck(dir.path(), &["check"]);
    let out = text(&check);
    assert_eq!(check.status.code(), Some(1), "{out}");
    assert!(
        out.contains("V3__accounts_id.sql:1:1: error [MG001]"),
        "{out}"
    );
    assert!(!out.contains("V2__accounts_email.sql:1:1: error"), "{out}");
}

#[test]
fn init_without_a_detectable_tool_asks_for_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("migrations/001_init.sql");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, OLD).unwrap();
    let o = platcheck(dir.path(), &["init"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("pass --tool (flyway,"), "{}", text(&o));
    assert!(!dir.path().join("platcheck.yaml").exists());
    let o = platcheck(dir.path(), &["init", "--tool", "dbmate"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let cluster =
        std::fs::read_to_string(dir.path().join("contracts/clusters/example-db.yaml")).unwrap();
    assert!(cluster.contains("tool: dbmate"), "{cluster}");
    let bad = platcheck(dir.path(), &["init", "--tool", "flyaway"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn init_asks_the_terminal_for_the_tool_and_writes_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("migrations/001_init.sql");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, OLD).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.args(["init", "--today", "2026-11-30"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1");
    let mut term = pty::spawn(cmd);
    term.expect("Which tool runs these migrations? (flyway,");
    // A typo gets a did-you-mean and the question again.
    term.send_line("flywy");
    term.expect("`flywy` is not one of them; did you mean `flyway`?");
    term.expect("Which tool runs these migrations?");
    term.send_line("flyway");
    let out = term.child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("created platcheck.yaml"), "{stdout}");
    let cluster =
        std::fs::read_to_string(dir.path().join("contracts/clusters/example-db.yaml")).unwrap();
    assert!(cluster.contains("    path: migrations\n"), "{cluster}");
    assert!(cluster.contains("    tool: flyway\n"), "{cluster}");
    // What init wrote with the answer checks green.
    let check = platcheck(dir.path(), &["check", "--quiet"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
}

#[test]
fn init_on_a_terminal_gives_up_after_three_wrong_answers() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("migrations/001_init.sql");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, OLD).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_platcheck"));
    cmd.arg("init").current_dir(dir.path()).env("NO_COLOR", "1");
    let mut term = pty::spawn(cmd);
    for answer in ["x", "y", "z"] {
        term.expect("Which tool runs these migrations?");
        term.send_line(answer);
        term.expect(&format!("`{answer}` is not one of them"));
    }
    term.expect("pass --tool (flyway,");
    let out = term.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("platcheck.yaml").exists());
}
