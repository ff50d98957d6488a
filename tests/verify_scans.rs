//! What `platcheck verify` now observes besides locks and rewrites, on the
//! local servers: the tables each PostgreSQL statement read in full
//! (counted by the server, in the statement's own transaction or, for a
//! statement that commits on its own, flushed from its worker session),
//! how each statement's locks were seen (read before COMMIT, or sampled),
//! and, on MariaDB, the migration tool's own table created first.
#[path = "verify_oracle/servers.rs"]
mod servers;

use platcheck::sql::verify::my::MyVerifier;
use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::{Run, Script, StmtReport, render};

fn script(text: &str) -> Vec<Script> {
    vec![Script {
        name: "up.sql".into(),
        text: text.into(),
    }]
}

fn stmt<'a>(run: &'a Run, head: &str) -> &'a StmtReport {
    run.statements
        .iter()
        .find(|s| s.statement.starts_with(head))
        .unwrap_or_else(|| panic!("no statement `{head}` in {:#?}", run.statements))
}

fn scans(s: &StmtReport) -> Vec<&str> {
    s.observed
        .scans
        .as_ref()
        .unwrap_or_else(|| panic!("scans not observed for `{}`", s.statement))
        .iter()
        .map(String::as_str)
        .collect()
}

const SCANNING: &str = "\
CREATE TABLE t (id int PRIMARY KEY, a int);
INSERT INTO t SELECT g, g FROM generate_series(1, 20) g;
ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0);
ALTER TABLE t ADD COLUMN b int DEFAULT 0;
UPDATE t SET a = a + 1;
CREATE MATERIALIZED VIEW t_mv AS SELECT id FROM t;
ANALYZE t;
CREATE INDEX CONCURRENTLY t_a_idx ON t (a);
";

#[test]
fn postgres_scans_are_counted_per_statement_and_compared() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut v = PgVerifier::connect(&url, false).expect("connect to PostgreSQL");
    let run = v.replay(&script(SCANNING)).expect("replay");
    for s in &run.statements {
        assert!(
            s.disagreements.is_empty(),
            "{}: {:?}",
            s.statement,
            s.disagreements
        );
    }
    // A CHECK is validated by reading the table, under ACCESS EXCLUSIVE;
    // a constant default is stored in the catalog, nothing is read.
    let check = stmt(&run, "ALTER TABLE t ADD CONSTRAINT");
    assert_eq!(check.predicted.scans, ["t"]);
    assert_eq!(scans(check), ["t"]);
    assert!(!check.observed.watched);
    assert!(scans(stmt(&run, "ALTER TABLE t ADD COLUMN")).is_empty());
    // A row statement's scan is its plan's: counted, and not judged.
    let update = stmt(&run, "UPDATE t");
    assert_eq!(scans(update), ["t"]);
    assert_eq!(update.predicted.maybe_scans, ["t"]);
    // A query's read under ACCESS SHARE is shown, not judged.
    assert_eq!(scans(stmt(&run, "CREATE MATERIALIZED VIEW")), ["t"]);
    assert_eq!(scans(stmt(&run, "ANALYZE t")), ["t"]);
    // Outside a transaction: counted on the worker session, exactly too.
    let cic = stmt(&run, "CREATE INDEX CONCURRENTLY");
    assert!(cic.observed.watched);
    assert_eq!(cic.predicted.scans, ["t"]);
    assert_eq!(scans(cic), ["t"]);
    let human = render::human(&run, "scratch database, dropped");
    let cic_row = human
        .lines()
        .find(|l| l.contains("CREATE INDEX CONCURRENTLY"))
        .unwrap();
    assert!(cic_row.contains("(sampled); full scan of t"), "{human}");
    assert!(
        human.contains("1 statement could not run in a transaction: its locks were sampled"),
        "{human}"
    );
    let check_row = human
        .lines()
        .find(|l| l.contains("ADD CONSTRAINT"))
        .unwrap();
    assert!(!check_row.contains("sampled"), "{human}");
}

#[test]
fn a_predicted_scan_the_server_did_not_do_is_a_disagreement() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut v = PgVerifier::connect(&url, false).expect("connect to PostgreSQL");
    // The CHECK is predicted to scan; the recorded observation is edited
    // to say it read nothing, as a server that skipped the scan would.
    let mut run = v
        .replay(&script(
            "CREATE TABLE t (id int, a int);\nALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0);\n",
        ))
        .expect("replay");
    let last = run.statements.last_mut().unwrap();
    assert_eq!(scans(last), ["t"]);
    last.observed.scans = Some(Vec::new());
    let again = platcheck::sql::verify::compare::compare(&last.predicted, &last.observed);
    assert_eq!(again, ["t: predicted a full scan, observed none"]);
}

#[test]
fn mariadb_scratch_has_the_migration_tools_table() {
    let Some(url) = servers::mariadb_url() else {
        return;
    };
    let mut v = MyVerifier::connect(&url, false).expect("connect to MariaDB");
    let run = v
        .replay(&script(
            "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO `schema_migrations` (version, dirty) VALUES (20260101, 0);\n",
        ))
        .expect("replay");
    let insert = stmt(&run, "INSERT INTO");
    assert_eq!(insert.observed.error, None, "{:?}", insert.observed);
    assert!(
        run.notes
            .iter()
            .any(|n| n.contains("created the migration tool's table schema_migrations")),
        "{:?}",
        run.notes
    );
}
