//! Refusals verify can explain, on the local PostgreSQL: a form only a
//! newer major version accepts, the statements that fail because of it, a
//! superuser's statement under the sandbox role, and the migration tool's
//! own table, which verify creates so a migration that names it runs.
//! Shapes taken from LemmyNet/lemmy's migrations.
#[path = "verify_oracle/servers.rs"]
mod servers;

use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::refusal::Refusal;
use platcheck::sql::verify::{Script, render};
use std::process::Command;

const LEMMY_LIKE: &str = "\
CREATE TABLE likes (person_id int, score int);
CREATE TABLE actions AS SELECT person_id, max(score) AS s FROM (SELECT person_id, score FROM likes) GROUP BY person_id;
CREATE INDEX idx_actions_person ON actions (person_id);
ALTER TABLE actions ALTER COLUMN person_id SET NOT NULL;
CREATE TABLE parent (id int PRIMARY KEY);
CREATE TABLE child (id int PRIMARY KEY, parent_id int REFERENCES parent (id));
ALTER TABLE child DISABLE TRIGGER ALL;
CREATE FUNCTION forbid () RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE TRIGGER forbid BEFORE INSERT ON __diesel_schema_migrations EXECUTE FUNCTION forbid ();
";

#[test]
fn refusals_name_their_cause_and_the_tool_table_exists() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut v = PgVerifier::connect(&url, false).expect("connect to PostgreSQL");
    assert!(
        v.version.0 < 16,
        "this test needs a server older than PostgreSQL 16 (the project's is 15), got {}",
        v.version_text
    );
    let run = v
        .replay(&[Script {
            name: "up.sql".into(),
            text: LEMMY_LIKE.into(),
        }])
        .expect("replay");
    let causes: Vec<Option<&Refusal>> = run
        .statements
        .iter()
        .map(|s| s.observed.refusal.as_ref())
        .collect();
    assert!(matches!(
        causes[1],
        Some(Refusal::NewerSyntax { major: 16, .. })
    ));
    // Both followers name the first link of the chain, statement 2.
    for i in [2, 3] {
        assert!(
            matches!(causes[i], Some(Refusal::AfterRefusal { index: 2, relation, .. }) if relation == "actions"),
            "statement {}: {:?}",
            i + 1,
            run.statements[i].observed
        );
    }
    assert_eq!(causes[6], Some(&Refusal::Privilege));
    let trigger = &run.statements[8];
    assert!(
        trigger.observed.error.is_none() && trigger.disagreements.is_empty(),
        "{trigger:?}"
    );
    assert!(
        run.notes
            .iter()
            .any(|n| n.contains("__diesel_schema_migrations"))
    );
    let text = render::human(&run, "scratch");
    assert!(
        text.contains("the server refused the statement: syntax newer than this server (PostgreSQL 16 accepts a subquery in FROM without an alias)"),
        "{text}"
    );
    assert!(
        text.contains("(4 refused by the server: 1 syntax newer than this server, 2 after an earlier refusal, 1 a privilege the role lacks, 0 prediction mismatches)"),
        "{text}"
    );
}

#[test]
fn the_binary_reports_the_newer_syntax_and_fails_the_run() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("up.sql");
    std::fs::write(&file, LEMMY_LIKE).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["verify", "--database-url", &url])
        .arg(&file)
        .output()
        .expect("run platcheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // A migration that fails on this server is a finding, not a pass.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("error MG900: statement 2 (CREATE TABLE actions AS SELECT"),
        "{stdout}"
    );
    assert!(stdout.contains("syntax newer than this server"), "{stdout}");
    assert!(
        stdout.contains("after an earlier refusal (`actions` comes from statement 2 at"),
        "{stdout}"
    );
}
