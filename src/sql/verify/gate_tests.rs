use super::gate::{Policy, Verdict, judge};
use crate::sql::Dialect;
use crate::sql::lexer;

fn verdict(sql: &str, d: Dialect) -> Verdict {
    let toks = lexer::tokens(sql, d, usize::MAX);
    let op = crate::sql::classify::classify(sql, &toks, d);
    judge(
        sql,
        op.as_ref(),
        &Policy::new(d, "platcheck_verify_1_0", &[]),
    )
}

fn withheld(sql: &str, d: Dialect) -> (usize, String) {
    match verdict(sql, d) {
        Verdict::Withhold(e) => (e.at, e.what),
        other => panic!("`{sql}` was not withheld: {other:?}"),
    }
}

fn runs(sql: &str, d: Dialect) {
    assert_eq!(verdict(sql, d), Verdict::Run, "`{sql}`");
}

const PG: Dialect = Dialect::Postgres;
const MY: Dialect = Dialect::MariaDb;

#[test]
fn postgres_statements_outside_the_database_are_withheld() {
    for sql in [
        "DROP DATABASE /* concurrently */ canary",
        "CREATE DATABASE other",
        "ALTER DATABASE app SET work_mem = '1GB'",
        "ALTER SYSTEM SET work_mem = '1GB'",
        "CREATE ROLE evil SUPERUSER LOGIN",
        "CREATE USER evil",
        "ALTER ROLE app SUPERUSER",
        "DROP ROLE IF EXISTS app",
        "GRANT pg_read_server_files TO app",
        "REVOKE admin FROM app",
        "GRANT CONNECT ON DATABASE canary TO public",
        "GRANT SET ON PARAMETER work_mem TO app",
        "COPY t TO PROGRAM 'touch /tmp/x'",
        "COPY (SELECT 1) TO PROGRAM 'id'",
        "COPY t FROM '/etc/passwd'",
        "COPY t (a, b) TO '/tmp/out.csv' WITH (FORMAT csv)",
        "SELECT dblink_exec('dbname=canary', 'DROP TABLE x')",
        "SELECT * FROM dblink('dbname=canary', 'SELECT 1') AS t(a int)",
        "CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw",
        "CREATE FOREIGN DATA WRAPPER w",
        "CREATE USER MAPPING FOR CURRENT_USER SERVER remote",
        "IMPORT FOREIGN SCHEMA public FROM SERVER remote INTO s",
        "CREATE EXTENSION dblink",
        "CREATE EXTENSION IF NOT EXISTS postgres_fdw",
        "CREATE EXTENSION plpython3u",
        "LOAD 'auto_explain'",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT pg_catalog.lo_import('/etc/passwd')",
        "SELECT lo_export(1234, '/tmp/x')",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity",
        "SELECT pg_reload_conf()",
        "CREATE TABLESPACE t LOCATION '/tmp/t'",
        "CREATE SUBSCRIPTION s CONNECTION 'host=x' PUBLICATION p",
        "COMMENT ON DATABASE canary IS 'x'",
        "REASSIGN OWNED BY app TO evil",
        "DROP OWNED BY app",
        "PREPARE TRANSACTION 'x'",
        "COMMIT PREPARED 'x'",
        "RESET ALL",
        "DISCARD ALL",
        "CHECKPOINT",
        "\\connect canary",
        "CREATE FUNCTION f() RETURNS int LANGUAGE plpython3u AS $$ import os $$",
        "CREATE FUNCTION f() RETURNS int AS 'libc.so', 'system' LANGUAGE c",
        "DO $$ BEGIN PERFORM dblink_exec('dbname=canary', 'DROP TABLE x'); END $$",
        "DO $$ BEGIN CREATE ROLE evil SUPERUSER; END $$",
        "DO $$ BEGIN IF true THEN ALTER SYSTEM SET work_mem = '1GB'; END IF; END $$",
        "DO $$ BEGIN EXECUTE 'CREATE ROLE evil'; END $$",
        "DO $$ BEGIN EXECUTE format('COPY t TO PROGRAM %L', 'id'); END $$",
        "DO $outer$ BEGIN EXECUTE $q$ DROP DATABASE canary $q$; END $outer$",
        "CREATE FUNCTION f() RETURNS void LANGUAGE sql AS 'SELECT pg_read_file(''/etc/passwd'')'",
        "CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN COPY t FROM PROGRAM 'id'; END $$",
        "CREATE VIEW v AS SELECT pg_ls_dir('/')",
        "CREATE TABLE t (a text DEFAULT pg_read_file('/etc/hostname'))",
        "SELECT \"dblink_exec\"('x', 'y')",
    ] {
        let (at, what) = withheld(sql, PG);
        assert!(at < sql.len(), "`{sql}`: offset {at}");
        assert!(!what.is_empty());
    }
}

#[test]
fn the_offending_token_is_located() {
    let sql = "DO $$\nBEGIN\n  PERFORM dblink_exec('x', 'y');\nEND $$";
    let (at, what) = withheld(sql, PG);
    assert_eq!(&sql[at..at + 11], "dblink_exec");
    assert!(what.contains("dblink_exec()"), "{what}");
    let sql = "COPY t TO PROGRAM 'id'";
    assert_eq!(&sql[withheld(sql, PG).0..], "PROGRAM 'id'");
}

#[test]
fn postgres_statements_inside_the_database_run() {
    for sql in [
        "CREATE TABLE t (id bigint PRIMARY KEY, role text, database text)",
        "ALTER TABLE t DROP COLUMN role",
        "ALTER TABLE accounts DROP user",
        "CREATE INDEX CONCURRENTLY i ON t (a)",
        "CREATE SCHEMA app",
        "DROP SCHEMA app CASCADE",
        "GRANT SELECT ON t TO reporting",
        "GRANT USAGE ON SCHEMA app TO reporting WITH GRANT OPTION",
        "REVOKE ALL ON ALL TABLES IN SCHEMA app FROM public",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA app GRANT SELECT ON TABLES TO reporting",
        "CREATE EXTENSION IF NOT EXISTS \"uuid-ossp\"",
        "CREATE EXTENSION pgcrypto WITH SCHEMA public",
        "DROP EXTENSION dblink",
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$",
        "DO $$ BEGIN RAISE NOTICE 'never DROP DATABASE in production'; END $$",
        "INSERT INTO docs VALUES ('how to DROP DATABASE x')",
        "SELECT load, checkpoint FROM t",
        "SET lock_timeout = '5s'",
        "SET search_path TO app, public",
        "COMMENT ON TABLE t IS 'x'",
        "SELECT set_config('search_path', 'app', false)",
        "VACUUM (ANALYZE) t",
    ] {
        runs(sql, PG);
    }
}

#[test]
fn session_statements_verify_holds_are_skipped() {
    for sql in [
        "BEGIN",
        "COMMIT",
        "END",
        "ROLLBACK",
        "START TRANSACTION",
        "SAVEPOINT a",
        "RELEASE SAVEPOINT a",
        "RESET lock_timeout",
        "RESET statement_timeout",
        "COPY t FROM STDIN",
        "COPY (SELECT * FROM t) TO STDOUT WITH (FORMAT csv)",
    ] {
        assert!(matches!(verdict(sql, PG), Verdict::Skip(_)), "`{sql}`");
    }
}

#[test]
fn mysql_statements_outside_the_database_are_withheld() {
    for sql in [
        "USE other",
        "DROP DATABASE canary",
        "DROP SCHEMA IF EXISTS canary",
        "CREATE DATABASE other",
        "CREATE USER 'evil'@'%' IDENTIFIED BY 'x'",
        "GRANT ALL ON *.* TO 'evil'@'%'",
        "GRANT SELECT ON platcheck_verify_1_0.t TO 'app'",
        "REVOKE ALL PRIVILEGES ON *.* FROM 'app'",
        "SET GLOBAL max_connections = 1",
        "SET @@global.max_statement_time = 0",
        "SET SESSION sql_mode = '', GLOBAL general_log = 1",
        "SET PERSIST max_connections = 1",
        "SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(125)",
        "SET PASSWORD FOR 'app' = PASSWORD('x')",
        "DELETE FROM other.t",
        "UPDATE mysql.user SET authentication_string = ''",
        "INSERT INTO canary.t VALUES (1)",
        "ALTER TABLE other.t ADD COLUMN c int",
        "SELECT * FROM t INTO OUTFILE '/tmp/x'",
        "SELECT LOAD_FILE('/etc/passwd')",
        "LOAD DATA INFILE '/etc/passwd' INTO TABLE t",
        "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t",
        "CREATE FUNCTION sys_exec RETURNS int SONAME 'lib_mysqludf_sys.so'",
        "INSTALL SONAME 'ha_connect'",
        "CREATE TABLE t (a int) ENGINE=CONNECT TABLE_TYPE=CSV FILE_NAME='/etc/passwd'",
        "CREATE TABLE t (a int) ENGINE=FEDERATED CONNECTION='mysql://u@h/db/t'",
        "CREATE TABLE t (a int) DATA DIRECTORY = '/tmp'",
        "KILL 12",
        "FLUSH PRIVILEGES",
        "SHUTDOWN",
        "CREATE PROCEDURE p() BEGIN DROP DATABASE canary; END",
        "CREATE PROCEDURE p() DROP DATABASE canary",
        "CREATE EVENT e ON SCHEDULE EVERY 1 HOUR DO SET GLOBAL max_connections = 1",
        "CREATE DEFINER=`root`@`localhost` PROCEDURE p() BEGIN IF 1 THEN GRANT ALL ON *.* TO x; END IF; END",
        "BEGIN NOT ATOMIC DROP USER app; END",
        "PREPARE s FROM 'DROP DATABASE canary'",
        "EXECUTE IMMEDIATE 'CREATE USER evil'",
        "SELECT 1 /*!, LOAD_FILE('/etc/passwd') */",
        "SELECT 1 /*!50000 INTO OUTFILE '/tmp/x' */",
        "XA START 'x'",
        "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'h')",
    ] {
        let (at, _) = withheld(sql, MY);
        assert!(at < sql.len(), "`{sql}`: offset {at}");
    }
}

#[test]
fn mysql_statements_inside_the_database_run() {
    for sql in [
        "USE platcheck_verify_1_0",
        "USE `platcheck_verify_1_0`",
        "CREATE TABLE t (id int PRIMARY KEY, `kill` int, role varchar(10))",
        "ALTER TABLE t ADD COLUMN c int, ALGORITHM=INSTANT",
        "ALTER TABLE t ENGINE=InnoDB",
        "INSERT INTO platcheck_verify_1_0.t VALUES (1)",
        "SET SESSION lock_wait_timeout = 5",
        "SET NAMES utf8mb4",
        "SET @x = @@global.max_connections",
        "SELECT @@global.version",
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
        "CREATE PROCEDURE p() BEGIN UPDATE t SET `kill` = 1; END",
        "BEGIN",
        "COMMIT",
        "SELECT 1 -- DROP DATABASE canary",
        "SELECT 1 # DROP DATABASE canary",
        "LOCK TABLES t WRITE",
    ] {
        runs(sql, MY);
    }
}
