//! Hostile migrations against the local servers: every example of issue 16
//! (and the run-time variants the statement gate cannot read in advance)
//! replayed by verify next to a canary database, a canary role/account and
//! a snapshot of the server's settings, all unchanged afterwards. Each
//! statement must be withheld (MG901), refused by the server (the sandbox
//! role), or skipped — never run where it could act outside the scratch
//! database.
#[path = "verify_hostile/canary.rs"]
mod canary;
#[path = "verify_oracle/servers.rs"]
mod servers;

use canary::{MyCanary, PgCanary};
use platcheck::sql::Dialect;
use platcheck::sql::lexer::{self, Tok};
use platcheck::sql::verify::my::MyVerifier;
use platcheck::sql::verify::pg::PgVerifier;
use platcheck::sql::verify::{Options, Run, Script, StmtReport};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Withheld,
    Refused,
    Skipped,
    Ran,
}

fn got(r: &StmtReport) -> Want {
    let o = &r.observed;
    match (&o.withheld, &o.error, &o.skipped) {
        (Some(_), _, _) => Want::Withheld,
        (_, Some(_), _) => Want::Refused,
        (_, _, Some(_)) => Want::Skipped,
        _ => Want::Ran,
    }
}

fn opts() -> Options {
    Options {
        statement_limit: Duration::from_secs(3),
        ..Options::default()
    }
}

/// Replays `cases` as one file and checks each statement's fate.
fn expect(run: &Run, cases: &[(String, Want)]) {
    let mut wrong = Vec::new();
    assert_eq!(run.statements.len(), cases.len(), "{:#?}", run.statements);
    for (r, (sql, want)) in run.statements.iter().zip(cases) {
        if got(r) != *want {
            wrong.push(format!(
                "`{sql}`: wanted {want:?}, got {:?}: {:?}",
                got(r),
                r.observed
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn script(cases: &[(String, Want)]) -> Vec<Script> {
    let text: String = cases.iter().map(|(s, _)| format!("{s};\n")).collect();
    vec![Script {
        name: "hostile.sql".into(),
        text,
    }]
}

#[test]
fn postgres_hostile_migrations_leave_the_server_as_it_was() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut c = PgCanary::new(&url);
    let before = c.snapshot();
    let id = c.id.clone();
    let evil = format!("{id}_evil");
    let marker = std::env::temp_dir().join(format!("{id}_program_ran"));
    let m = marker.display();
    use Want::*;
    let cases: Vec<(String, Want)> = vec![
        ("CREATE TABLE t (id int PRIMARY KEY, a int)".into(), Ran),
        (format!("DROP DATABASE /* concurrently */ {id}"), Withheld),
        (format!("CREATE DATABASE {evil}"), Withheld),
        (format!("ALTER DATABASE {id} SET work_mem = '77MB'"), Withheld),
        ("ALTER SYSTEM SET work_mem = '77MB'".into(), Withheld),
        (format!("CREATE ROLE {evil} SUPERUSER LOGIN"), Withheld),
        (format!("ALTER ROLE {id} SUPERUSER"), Withheld),
        (format!("GRANT pg_execute_server_program TO {id}"), Withheld),
        ("CREATE EXTENSION IF NOT EXISTS dblink".into(), Withheld),
        (format!("SELECT dblink_exec('dbname={id}', 'DELETE FROM ledger')"), Withheld),
        ("CREATE SERVER evil FOREIGN DATA WRAPPER postgres_fdw".into(), Withheld),
        (format!("COPY (SELECT 1) TO PROGRAM 'touch {m}'"), Withheld),
        ("COPY t FROM '/etc/hostname'".into(), Withheld),
        ("SELECT pg_read_file('/etc/hostname')".into(), Withheld),
        (format!("SELECT lo_export(lo_from_bytea(0, 'x'), '{m}')"), Withheld),
        ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity".into(), Withheld),
        ("LOAD 'auto_explain'".into(), Withheld),
        (format!("\\connect {id}"), Withheld),
        ("RESET ALL".into(), Withheld),
        (
            format!("DO $$ BEGIN PERFORM dblink_exec('dbname={id}', 'DELETE FROM ledger'); END $$"),
            Withheld,
        ),
        (format!("DO $$ BEGIN EXECUTE 'DROP ROLE {id}'; END $$"), Withheld),
        // Built at run time: the gate cannot see them, the sandbox role
        // has no right to do them.
        (
            format!("DO $$ BEGIN EXECUTE concat('CREATE RO', 'LE {evil} SUPERUSER'); END $$"),
            Refused,
        ),
        (
            format!("DO $$ BEGIN EXECUTE concat('COPY (SELECT 1) TO PRO', 'GRAM ''touch {m}'''); END $$"),
            Refused,
        ),
        (
            format!("DO $$ BEGIN EXECUTE concat('DROP DATA', 'BASE {id}'); END $$"),
            Refused,
        ),
        (
            "DO $$ BEGIN EXECUTE concat('CREATE EXTEN', 'SION dblink'); END $$".into(),
            Refused,
        ),
        (
            format!("DO $$ BEGIN EXECUTE concat('ALTER ROLE {id} ', 'SUPERUSER'); END $$"),
            Refused,
        ),
        // The limits hold whatever the SQL sets.
        ("SET statement_timeout = 0".into(), Skipped),
        ("SELECT pg_sleep(30)".into(), Refused),
        (
            "CREATE FUNCTION slow() RETURNS void SET statement_timeout = 0 LANGUAGE sql AS 'SELECT pg_sleep(30)'".into(),
            Ran,
        ),
        ("SELECT slow()".into(), Refused),
        // Only statements that are non-transactional by their parse go to
        // the second session.
        ("CREATE INDEX CONCURRENTLY t_a ON t (a)".into(), Ran),
        ("COMMIT".into(), Skipped),
    ];
    let mut v = PgVerifier::connect_with(&url, &opts()).expect("connect");
    let run = v.replay(&script(&cases)).expect("replay");
    drop(v);
    expect(&run, &cases);
    for r in run.statements.iter().filter(|r| got(r) == Refused) {
        let e = r.observed.error.as_deref().unwrap_or("");
        assert!(
            e.contains("permission denied")
                || e.contains("must be superuser")
                || e.contains("must be owner")
                || e.contains("cannot be executed")
                || e.contains("cannot run inside")
                || e.contains("statement limit"),
            "{}: refused for another reason: {e}",
            r.statement
        );
    }
    assert!(
        run.statements
            .iter()
            .filter(|r| r.statement.contains("pg_sleep(30)") || r.statement == "SELECT slow()")
            .all(|r| r
                .observed
                .error
                .as_deref()
                .is_some_and(|e| e.contains("cancelled by platcheck"))),
        "the client-side limit stopped the sleeps"
    );
    assert!(!marker.exists(), "a shell command ran: {m}");
    assert_eq!(c.snapshot(), before, "the canaries changed");
}

#[test]
fn a_lone_cr_cannot_smuggle_a_commit_into_an_in_place_replay() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut c = PgCanary::new(&url);
    let before = c.snapshot();
    let text = "SELECT 1 -- x\r; COMMIT; CREATE TABLE smuggled (a int);\nCREATE TABLE smuggled_too (a int);\n";
    let mut v = PgVerifier::connect_with(
        &c.url_of_canary(),
        &Options {
            in_place: true,
            ..opts()
        },
    )
    .expect("connect in place");
    let run = v
        .replay(&[Script {
            name: "cr.sql".into(),
            text: text.into(),
        }])
        .expect("replay");
    drop(v);
    let kinds: Vec<Want> = run.statements.iter().map(got).collect();
    assert_eq!(
        kinds,
        [Want::Ran, Want::Skipped, Want::Ran, Want::Ran],
        "{run:#?}"
    );
    let mut db = postgres::Client::connect(&c.url_of_canary(), postgres::NoTls).unwrap();
    let left: i64 = db
        .query_one(
            "SELECT count(*) FROM pg_class WHERE relname IN ('smuggled', 'smuggled_too')",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(left, 0, "--in-place committed into the URL's database");
    assert_eq!(c.snapshot(), before);
}

#[test]
fn postgres_agrees_with_the_lexer_on_where_a_comment_ends() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    for (sql, comment_to_end) in [
        ("SELECT 10 -- x\r+1\n", false),
        ("SELECT 10 -- x\n+1", false),
        ("SELECT 10 -- x+1", true),
    ] {
        let v: i32 = c.query_one(sql, &[]).unwrap().get(0);
        assert_eq!(v == 10, comment_to_end, "{sql:?}: the server says {v}");
        let toks = lexer::tokens(sql, Dialect::Postgres, usize::MAX);
        let after = toks.iter().any(|t| &sql[t.start..t.end] == "+");
        assert_eq!(
            after, !comment_to_end,
            "{sql:?}: the lexer disagrees with the server"
        );
    }
}

#[test]
fn mariadb_agrees_with_the_lexer_on_comments() {
    use mysql::prelude::Queryable;
    let Some(url) = servers::mariadb_url() else {
        return;
    };
    let mut c = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap()).unwrap();
    let mut cases: Vec<String> = [" ", "\t", "\x0b", "\x0c", "\x01", "\x1f", "\x7f"]
        .iter()
        .map(|ch| format!("SELECT 10 --{ch}1\n"))
        .collect();
    cases.push("SELECT 10 --1\n".into());
    cases.push("SELECT 10 # x\r+1\n".into());
    cases.push("SELECT 10 -- x\r+1\n".into());
    for sql in &cases {
        let server: Option<i64> = c.query_first(sql.as_str()).ok().flatten();
        let server_comment = server == Some(10);
        let toks = lexer::tokens(sql, Dialect::MariaDb, usize::MAX);
        let lexer_comment = toks.len() == 2 && toks.iter().all(|t| t.kind != Tok::Punct);
        assert_eq!(
            lexer_comment,
            server_comment,
            "{sql:?}: server {server:?}, lexer {:?}",
            toks.iter()
                .map(|t| &sql[t.start..t.end])
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn mariadb_hostile_migrations_leave_the_server_as_it_was() {
    let Some(url) = servers::mariadb_url() else {
        return;
    };
    let mut c = MyCanary::new(&url);
    let before = c.snapshot();
    let id = c.id.clone();
    let evil = format!("{id}_evil");
    use Want::*;
    let cases: Vec<(String, Want)> = vec![
        ("CREATE TABLE t (id int PRIMARY KEY, a int)".into(), Ran),
        (format!("USE {id}"), Withheld),
        // After a withheld USE the session is still in the scratch
        // database, where there is no ledger.
        ("DELETE FROM ledger".into(), Refused),
        (format!("DELETE FROM {id}.ledger"), Withheld),
        (format!("DROP DATABASE {id}"), Withheld),
        (format!("CREATE DATABASE {evil}"), Withheld),
        (
            format!("CREATE USER '{evil}'@'%' IDENTIFIED BY 'x'"),
            Withheld,
        ),
        (format!("GRANT ALL ON *.* TO '{evil}'@'%'"), Withheld),
        ("SET GLOBAL max_connections = 7".into(), Withheld),
        ("SET @@global.max_statement_time = 0".into(), Withheld),
        ("SELECT 1 INTO OUTFILE '/tmp/pcv_outfile'".into(), Withheld),
        ("SELECT LOAD_FILE('/etc/hostname')".into(), Withheld),
        (
            "SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(30)".into(),
            Withheld,
        ),
        // Executed by the server although it looks like a comment.
        (
            "SELECT 1 /*!, LOAD_FILE('/etc/hostname') */ FROM DUAL".into(),
            Withheld,
        ),
        (format!("CREATE PROCEDURE p() DROP DATABASE {id}"), Withheld),
        (
            format!(
                "CREATE EVENT e ON SCHEDULE AT CURRENT_TIMESTAMP DO DROP USER '{id}'@'localhost'"
            ),
            Withheld,
        ),
        // Built at run time: the sandbox account has no right to do them.
        (format!("SET @s = concat('DROP DATA', 'BASE {id}')"), Ran),
        ("PREPARE s FROM @s".into(), Ran),
        ("EXECUTE s".into(), Refused),
        (
            "SET @g = concat('SET GLO', 'BAL max_connections = 7')".into(),
            Ran,
        ),
        ("PREPARE g FROM @g".into(), Refused),
        ("EXECUTE g".into(), Refused),
        (format!("SET @u = concat('CREATE US', 'ER {evil}')"), Ran),
        ("PREPARE u FROM @u".into(), Ran),
        ("EXECUTE u".into(), Refused),
        // The limits hold whatever the SQL sets.
        ("SET SESSION max_statement_time = 0".into(), Skipped),
        ("SELECT SLEEP(30)".into(), Refused),
        ("ALTER TABLE t ADD COLUMN b int".into(), Ran),
    ];
    let mut v = MyVerifier::connect_with(&url, &opts()).expect("connect");
    let run = v.replay(&script(&cases)).expect("replay");
    drop(v);
    expect(&run, &cases);
    let sleep = run
        .statements
        .iter()
        .find(|r| r.statement == "SELECT SLEEP(30)")
        .unwrap();
    assert!(
        sleep
            .observed
            .error
            .as_deref()
            .is_some_and(|e| e.contains("cancelled by platcheck")),
        "{:?}",
        sleep.observed
    );
    assert!(
        run.notes.is_empty(),
        "the sandbox account was set up: {:?}",
        run.notes
    );
    assert_eq!(c.snapshot(), before, "the canaries changed");
}

#[test]
fn a_total_limit_stops_the_whole_replay() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut v = PgVerifier::connect_with(
        &url,
        &Options {
            total_limit: Duration::from_secs(2),
            ..opts()
        },
    )
    .expect("connect");
    let err = v
        .replay(&[Script {
            name: "slow.sql".into(),
            text: "SELECT pg_sleep(1.5);\nSELECT pg_sleep(1.5);\nSELECT pg_sleep(1.5);\n".into(),
        }])
        .expect_err("the total limit ends the run");
    assert!(err.0.contains("total limit"), "{}", err.0);
}

#[test]
fn the_word_concurrently_never_sends_a_statement_out_of_the_transaction() {
    let Some(url) = servers::postgres_url() else {
        return;
    };
    let mut c = PgCanary::new(&url);
    let before = c.snapshot();
    // Trusted mode: no gate, so only the routing decides. A statement the
    // parse does not know as non-transactional runs in a transaction,
    // where PostgreSQL refuses DROP DATABASE.
    let mut v = PgVerifier::connect_with(
        &url,
        &Options {
            allow_cluster_wide: true,
            ..opts()
        },
    )
    .expect("connect");
    let run = v
        .replay(&[Script {
            name: "word.sql".into(),
            text: format!("DROP DATABASE /* concurrently */ {};\n", c.id),
        }])
        .expect("replay");
    drop(v);
    let o = &run.statements[0].observed;
    assert!(!o.watched, "sent to the second session: {o:?}");
    assert!(
        o.error
            .as_deref()
            .is_some_and(|e| e.contains("transaction block")),
        "{o:?}"
    );
    assert_eq!(c.snapshot(), before);
}
