use super::*;

fn bodies(text: &str, d: Dialect) -> Vec<&str> {
    split(text, d)
        .into_iter()
        .filter(|p| p.is_statement())
        .map(|p| &text[p.body.start..p.body.end])
        .collect()
}

#[test]
fn strings_comments_and_dollar_quotes_hide_semicolons() {
    let sql = "SELECT ';'; -- a;b\nCREATE FUNCTION f() RETURNS int AS $f$ SELECT 1; $f$ LANGUAGE sql;\n/* x; /* y; */ z; */ SELECT \"a;b\"";
    assert_eq!(
        bodies(sql, Dialect::Postgres),
        vec![
            "SELECT ';'",
            "CREATE FUNCTION f() RETURNS int AS $f$ SELECT 1; $f$ LANGUAGE sql",
            "SELECT \"a;b\""
        ]
    );
}

#[test]
fn mysql_delimiter() {
    let sql = "DELIMITER //\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END//\nDELIMITER ;\nSELECT 1;";
    assert_eq!(
        bodies(sql, Dialect::MySql),
        vec![
            "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END",
            "SELECT 1"
        ]
    );
}

#[test]
fn mysql_delimiter_glued_to_a_word() {
    let sql = "DELIMITER $$\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END$$\nDELIMITER ;\nALTER TABLE a ADD COLUMN y int;";
    assert_eq!(
        bodies(sql, Dialect::MySql),
        vec![
            "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END",
            "ALTER TABLE a ADD COLUMN y int"
        ]
    );
}

#[test]
fn a_lone_cr_ends_a_postgres_comment_but_not_a_mysql_one() {
    let sql = "SELECT 1 -- x\r; COMMIT; CREATE TABLE t (a int);";
    assert_eq!(
        bodies(sql, Dialect::Postgres),
        vec!["SELECT 1", "COMMIT", "CREATE TABLE t (a int)"]
    );
    assert_eq!(
        bodies(sql, Dialect::MariaDb),
        vec!["SELECT 1 -- x\r; COMMIT; CREATE TABLE t (a int)"]
            .into_iter()
            .map(|s| s.split(" -- ").next().unwrap())
            .collect::<Vec<_>>()
    );
}

#[test]
fn mysql_dash_dash_without_a_space_is_an_operator() {
    let sql = "SELECT 1--1; SELECT 2 --\tgone;\nSELECT 3 # also gone;\n;";
    assert_eq!(
        bodies(sql, Dialect::MySql),
        vec!["SELECT 1--1", "SELECT 2 --\tgone;\nSELECT 3"]
    );
}

#[test]
fn begin_atomic_body() {
    let sql = "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN 1 END; END; SELECT 2;";
    assert_eq!(bodies(sql, Dialect::Postgres).len(), 2);
}

#[test]
fn unterminated_string_is_reported() {
    let p = split("SELECT 1; SELECT 'abc", Dialect::Postgres);
    assert_eq!(p.len(), 2);
    assert_eq!(p[1].error.as_ref().unwrap().what, "unterminated string");
}

fn errors(text: &str) -> Vec<(usize, &'static str)> {
    split(text, Dialect::Postgres)
        .into_iter()
        .filter_map(|p| p.error.map(|e| (e.at, e.what)))
        .collect()
}

#[test]
fn unclosed_states_are_statements_with_an_error_where_they_open() {
    for (sql, at, what) in [
        (
            "SELECT 1;\n/* oops\nALTER TABLE t;",
            10,
            "unterminated comment",
        ),
        (
            "SELECT 1;\n/* a /* b */ ALTER TABLE t;",
            10,
            "unterminated comment",
        ),
        (
            "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1;\nALTER TABLE t;",
            45,
            "unterminated BEGIN ATOMIC body (no matching END)",
        ),
        (
            "COPY t FROM stdin;\nit's\nALTER TABLE t;",
            0,
            "COPY FROM STDIN data without a closing `\\.` line",
        ),
    ] {
        assert_eq!(errors(sql), vec![(at, what)], "{sql}");
    }
}

#[test]
fn begin_and_atomic_as_column_names_do_not_open_a_body() {
    let sql = "CREATE INDEX i ON t (begin, atomic);\nALTER TABLE t ADD c int;";
    assert_eq!(bodies(sql, Dialect::Postgres).len(), 2);
    assert!(errors(sql).is_empty());
}

#[test]
fn copy_data_is_skipped_to_its_end_marker() {
    let sql = "COPY t (a) FROM stdin;\nit's\t'\n\\.\r\nALTER TABLE t ADD c int;";
    assert_eq!(
        bodies(sql, Dialect::Postgres),
        vec!["COPY t (a) FROM stdin", "ALTER TABLE t ADD c int"]
    );
}

#[test]
fn template_tags_do_not_hide_statements() {
    let sql = "{% if x %}\nALTER TABLE t ADD c int;\n{% endif %}\n{# note; #}SELECT 1;";
    assert_eq!(
        bodies(sql, Dialect::Postgres),
        vec!["ALTER TABLE t ADD c int", "SELECT 1"]
    );
}
