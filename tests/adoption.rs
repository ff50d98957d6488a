//! A new user's path, end to end with the built binary: an empty directory
//! -> `platcheck init` -> a green `check` -> a CI config (the pre-commit
//! hook) that passes; and an existing repository adopted through
//! `init --baseline`, after which only new migrations are judged.
mod common;
#[path = "support/precommit.rs"]
mod precommit;
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
