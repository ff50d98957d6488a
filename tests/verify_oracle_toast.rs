//! The oracle for TOAST: the TOAST table's index is named where the server
//! locks it, verify maps `pg_toast.pg_toast_N_index` back to its owner,
//! the model sizes a row in the order its columns were declared, and
//! REINDEX … CONCURRENTLY names the indexes it swaps and drops. Each case
//! runs on the local PostgreSQL 15 (a scratch database, or a transaction
//! rolled back).
#[path = "verify_oracle/servers.rs"]
mod servers;

use platcheck::sql::analysis::analyze_file;
use platcheck::sql::schema::{Model, toast_index_name};
use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::{LockObs, Run, Script, StmtReport, file_ctx};
use platcheck::sql::{Dialect, Version};
use servers::Server;

fn verifier() -> Option<PgVerifier> {
    match servers::postgres() {
        Server::Url(url) => {
            let mut v = PgVerifier::connect(&url, false).expect("connect to PostgreSQL");
            v.strict_indexes = true;
            Some(v)
        }
        Server::Skip(why) => {
            println!("skipped: {why}");
            None
        }
    }
}

fn replay(v: &mut PgVerifier, name: &str, text: &str) -> Run {
    v.reset().expect("reset");
    v.replay(&[Script {
        name: name.to_string(),
        text: text.to_string(),
    }])
    .expect("replay")
}

fn last(run: &Run) -> &StmtReport {
    let r = run.statements.last().expect("a statement");
    assert!(
        run.statements.iter().all(|s| s.disagreements.is_empty()),
        "disagreements: {:?}",
        run.statements
            .iter()
            .flat_map(|s| s.disagreements.clone())
            .collect::<Vec<_>>()
    );
    r
}

fn mode_of<'a>(locks: &'a [LockObs], rel: &str) -> Option<&'a str> {
    locks
        .iter()
        .find(|l| l.relation == rel)
        .map(|l| l.mode.as_str())
}

#[test]
fn the_toast_index_is_named_where_the_server_locks_it() {
    let Some(mut v) = verifier() else {
        return;
    };
    let idx = toast_index_name("t");
    let setup =
        "CREATE TABLE t (id int PRIMARY KEY, a int, b text); INSERT INTO t VALUES (1, 1, 'x');\n";
    // Certain, read before COMMIT: both sides name it.
    for (stmt, mode) in [
        (
            "ALTER TABLE t ALTER COLUMN a TYPE bigint;",
            "ACCESS EXCLUSIVE",
        ),
        ("TRUNCATE t;", "ACCESS EXCLUSIVE"),
        ("REINDEX TABLE t;", "ACCESS EXCLUSIVE"),
        ("CLUSTER t USING t_pkey;", "ACCESS EXCLUSIVE"),
        ("DROP TABLE t;", "ACCESS EXCLUSIVE"),
    ] {
        let run = replay(&mut v, stmt, &format!("{setup}{stmt}"));
        let r = last(&run);
        assert_eq!(mode_of(&r.predicted.locks, &idx), Some(mode), "{stmt}");
        assert_eq!(mode_of(&r.observed.locks, &idx), Some(mode), "{stmt}");
    }
    // Left alone: a reloption change, REINDEX INDEX of the table's own key.
    for stmt in [
        "ALTER TABLE t SET (fillfactor = 70);",
        "ALTER TABLE t SET (user_catalog_table = true);",
        "REINDEX INDEX t_pkey;",
    ] {
        let run = replay(&mut v, stmt, &format!("{setup}{stmt}"));
        let r = last(&run);
        assert_eq!(mode_of(&r.predicted.locks, &idx), None, "{stmt}");
        assert_eq!(mode_of(&r.observed.locks, &idx), None, "{stmt}");
    }
    // A long value written: ROW EXCLUSIVE, a maybe on the prediction's side.
    let long = "INSERT INTO t VALUES (2, 2, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 500) g));";
    let run = replay(&mut v, "long value", &format!("{setup}{long}"));
    let r = last(&run);
    assert_eq!(mode_of(&r.predicted.maybe, &idx), Some("ROW EXCLUSIVE"));
    assert_eq!(mode_of(&r.observed.locks, &idx), Some("ROW EXCLUSIVE"));
    assert!(r.observed.toast_index_observed);
}

#[test]
fn reindex_concurrently_names_the_indexes_it_replaces() {
    let Some(mut v) = verifier() else {
        return;
    };
    let setup = "CREATE TABLE t (id int PRIMARY KEY, a int, b text); CREATE INDEX t_a ON t (a);\nINSERT INTO t VALUES (1, 1, repeat('x', 9000));\n";
    for (stmt, indexes) in [
        ("REINDEX INDEX CONCURRENTLY t_a;", &["t_a"][..]),
        ("REINDEX TABLE CONCURRENTLY t;", &["t_a", "t_pkey"][..]),
    ] {
        let run = replay(&mut v, stmt, &format!("{setup}{stmt}"));
        let r = last(&run);
        assert!(r.observed.watched, "{stmt} runs outside a transaction");
        assert_eq!(
            mode_of(&r.predicted.locks, "t"),
            Some("SHARE UPDATE EXCLUSIVE"),
            "{stmt}"
        );
        assert_eq!(
            mode_of(&r.observed.locks, "t"),
            Some("SHARE UPDATE EXCLUSIVE"),
            "{stmt}"
        );
        for i in indexes {
            // The old copy is dropped under ACCESS EXCLUSIVE at the end.
            assert_eq!(
                mode_of(&r.predicted.locks, i),
                Some("ACCESS EXCLUSIVE"),
                "{stmt}: {i}"
            );
            // The server's copy replaces it: the old oid is gone.
            assert!(r.observed.dropped.iter().any(|d| d == i), "{stmt}: {i}");
        }
    }
}

/// Column lists whose TOAST table depends on the order of the columns
/// (alignment padding), as the server decides it.
const ORDER_FORMS: &[&str] = &[
    "CREATE TABLE @ (a boolean, b bigint, v varchar(497), c boolean);",
    "CREATE TABLE @ (v varchar(497), b bigint, a boolean, c boolean);",
    "CREATE TABLE @ (a boolean, b bigint, v varchar(10), c boolean);\nALTER TABLE @ ALTER COLUMN v TYPE varchar(497);",
    "CREATE TABLE @ (v varchar(497), b bigint, a boolean, c boolean);\nALTER TABLE @ RENAME COLUMN v TO z;",
    "CREATE TABLE @ (a boolean, b bigint, v varchar(497), c boolean, d int);\nALTER TABLE @ DROP COLUMN d;",
    "CREATE TABLE @ (v varchar(497), b bigint);\nALTER TABLE @ ADD COLUMN a boolean, ADD COLUMN c boolean;",
];

#[test]
fn toast_tables_follow_the_declared_column_order() {
    let url = match servers::postgres() {
        Server::Url(u) => u,
        Server::Skip(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let table = format!("pc_toast_order_{}", std::process::id());
    let (mut with, mut without) = (0, 0);
    for form in ORDER_FORMS {
        let sql = form.replace('@', &table);
        let mut tx = client.transaction().expect("BEGIN");
        tx.batch_execute(&sql)
            .unwrap_or_else(|e| panic!("the server refused {sql}: {e}"));
        let server: bool = tx
            .query_one(
                "SELECT reltoastrelid <> 0 FROM pg_class WHERE oid = $1::text::regclass",
                &[&table],
            )
            .expect("pg_class")
            .get(0);
        tx.rollback().expect("ROLLBACK");
        // The model is rebuilt each time: a HashMap's order differs
        // between runs, the declared order does not.
        for _ in 0..8 {
            let mut m = Model::default();
            analyze_file(
                &sql,
                0,
                file_ctx(Dialect::Postgres, Version(15, 0, 0)),
                &mut m,
            );
            let name = platcheck::sql::ops::Name::new(table.clone());
            assert_eq!(m.has_toast(&name), Some(server), "{sql}");
        }
        if server {
            with += 1;
        } else {
            without += 1;
        }
    }
    assert!(with >= 2 && without >= 2, "{with} with, {without} without");
}
